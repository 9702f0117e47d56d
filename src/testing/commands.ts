/**
 * Command sequences for model-based and simulation tests. A command is plain data; the rows it acts on
 * are picks (natural numbers) resolved against the state when it runs (`requestFor`), so that any prefix,
 * and any sequence fast-check shrinks to, is still a sequence of meaningful requests.
 */
import fc from 'fast-check';
import { adHocCouponArbitrary, customLineArbitrary } from './arbitraries.js';
import {
  type ComponentRequest,
  componentArbitrary,
  couponArbitrary,
  customerArbitrary,
  type ProductFields,
  productArbitrary,
} from './catalog-arbitraries.js';

/** Chooses a row: the pick modulo the number of candidate rows when the command runs. */
export type Pick = number;

export type StatusAction =
  | 'cancel'
  | 'delayed_cancel'
  | 'undo_delayed_cancel'
  | 'hold'
  | 'resume'
  | 'reactivate';

export type ReadTarget =
  | 'subscriptions'
  | 'invoices'
  | 'events'
  | 'customers'
  | 'components'
  | 'coupons'
  | 'groups';

/** One step of a simulation. `hours` pass before it runs. */
export type Command = { readonly hours: number } & (
  | { readonly op: 'wait' }
  | { readonly op: 'family' }
  | { readonly op: 'product'; readonly family: Pick; readonly product: ProductFields }
  | { readonly op: 'component'; readonly family: Pick; readonly component: ComponentRequest }
  | {
      readonly op: 'coupon';
      readonly family: Pick;
      readonly coupon: Readonly<Record<string, unknown>>;
      readonly restrictTo: Pick | null;
    }
  | { readonly op: 'customer'; readonly customer: Readonly<Record<string, unknown>> }
  | { readonly op: 'card'; readonly customer: Pick; readonly lastDigit: 1 | 2 | 3 }
  | {
      readonly op: 'subscribe';
      readonly product: Pick;
      readonly customer: Pick;
      readonly remittance: boolean;
      readonly coupon: Pick | null;
    }
  | {
      readonly op: 'allocate';
      readonly subscription: Pick;
      readonly component: Pick;
      readonly quantity: number;
    }
  | { readonly op: 'usage'; readonly subscription: Pick; readonly component: Pick; readonly quantity: number }
  | { readonly op: 'ingest'; readonly subscription: Pick; readonly count: number; readonly bytes: number }
  | {
      readonly op: 'adhoc_invoice';
      readonly subscription: Pick;
      readonly request: Readonly<Record<string, unknown>>;
      readonly draft: boolean;
    }
  | {
      readonly op: 'issue_invoice';
      readonly invoice: Pick;
      readonly onFailedPayment: 'leave_open_invoice' | 'rollback_to_pending' | 'initiate_dunning';
    }
  | {
      readonly op: 'pay_invoice';
      readonly invoice: Pick;
      readonly share: number;
      readonly type: 'external' | 'prepayment' | 'service_credit';
    }
  | { readonly op: 'void_invoice'; readonly invoice: Pick }
  | { readonly op: 'prepayment'; readonly subscription: Pick; readonly cents: number }
  | { readonly op: 'service_credit'; readonly subscription: Pick; readonly cents: number }
  | { readonly op: 'status'; readonly subscription: Pick; readonly action: StatusAction }
  | { readonly op: 'migrate'; readonly subscription: Pick; readonly product: Pick }
  | { readonly op: 'group'; readonly subscription: Pick; readonly target: Pick | 'self' }
  | { readonly op: 'ungroup'; readonly subscription: Pick }
  | { readonly op: 'advance_invoice'; readonly subscription: Pick; readonly force: boolean }
  | { readonly op: 'proforma'; readonly subscription: Pick }
  | { readonly op: 'read'; readonly target: ReadTarget }
);

export type CommandOp = Command['op'];

const pick = fc.nat({ max: 1_000 });
const hoursArbitrary = fc.oneof(
  { withCrossShrink: true },
  { weight: 6, arbitrary: fc.constant(0) },
  { weight: 3, arbitrary: fc.integer({ min: 1, max: 48 }) },
  { weight: 1, arbitrary: fc.integer({ min: 49, max: 24 * 40 }) },
);

const adHocRequest = fc
  .record({
    line_items: fc.array(customLineArbitrary(), { minLength: 1, maxLength: 4 }),
    coupons: fc.array(adHocCouponArbitrary(), { maxLength: 2 }),
  })
  .map((invoice) => ({
    ...invoice,
    line_items: invoice.line_items.map((line) => ({
      ...line,
      quantity: line.quantity === '0.0000' ? '1' : line.quantity,
    })),
  }));

/** The operations a command may run, each generating its own fields. */
const operations: { readonly [K in CommandOp]: fc.Arbitrary<Omit<Extract<Command, { op: K }>, 'hours'>> } = {
  wait: fc.constant({ op: 'wait' as const }),
  family: fc.constant({ op: 'family' as const }),
  product: fc.record({ op: fc.constant('product' as const), family: pick, product: productArbitrary() }),
  component: fc.record({
    op: fc.constant('component' as const),
    family: pick,
    component: componentArbitrary(1),
  }),
  coupon: fc.record({
    op: fc.constant('coupon' as const),
    family: pick,
    coupon: couponArbitrary(),
    restrictTo: fc.option(pick, { nil: null }),
  }),
  customer: fc.record({ op: fc.constant('customer' as const), customer: customerArbitrary() }),
  card: fc.record({
    op: fc.constant('card' as const),
    customer: pick,
    lastDigit: fc.constantFrom(1 as const, 1 as const, 2 as const, 3 as const),
  }),
  subscribe: fc.record({
    op: fc.constant('subscribe' as const),
    product: pick,
    customer: pick,
    remittance: fc.boolean(),
    coupon: fc.option(pick, { nil: null, freq: 3 }),
  }),
  allocate: fc.record({
    op: fc.constant('allocate' as const),
    subscription: pick,
    component: pick,
    quantity: fc.integer({ min: 0, max: 60 }),
  }),
  usage: fc.record({
    op: fc.constant('usage' as const),
    subscription: pick,
    component: pick,
    quantity: fc.integer({ min: -5, max: 200 }),
  }),
  ingest: fc.record({
    op: fc.constant('ingest' as const),
    subscription: pick,
    count: fc.integer({ min: 1, max: 20 }),
    bytes: fc.integer({ min: 0, max: 5_000 }),
  }),
  adhoc_invoice: fc.record({
    op: fc.constant('adhoc_invoice' as const),
    subscription: pick,
    request: adHocRequest,
    draft: fc.boolean(),
  }),
  issue_invoice: fc.record({
    op: fc.constant('issue_invoice' as const),
    invoice: pick,
    onFailedPayment: fc.constantFrom(
      'leave_open_invoice' as const,
      'rollback_to_pending' as const,
      'initiate_dunning' as const,
    ),
  }),
  pay_invoice: fc.record({
    op: fc.constant('pay_invoice' as const),
    invoice: pick,
    share: fc.integer({ min: 1, max: 100 }),
    type: fc.constantFrom('external' as const, 'prepayment' as const, 'service_credit' as const),
  }),
  void_invoice: fc.record({ op: fc.constant('void_invoice' as const), invoice: pick }),
  prepayment: fc.record({
    op: fc.constant('prepayment' as const),
    subscription: pick,
    cents: fc.integer({ min: 1, max: 50_000 }),
  }),
  service_credit: fc.record({
    op: fc.constant('service_credit' as const),
    subscription: pick,
    cents: fc.integer({ min: 1, max: 50_000 }),
  }),
  status: fc.record({
    op: fc.constant('status' as const),
    subscription: pick,
    action: fc.constantFrom<StatusAction>(
      'cancel',
      'delayed_cancel',
      'undo_delayed_cancel',
      'hold',
      'resume',
      'reactivate',
    ),
  }),
  migrate: fc.record({ op: fc.constant('migrate' as const), subscription: pick, product: pick }),
  group: fc.record({
    op: fc.constant('group' as const),
    subscription: pick,
    target: fc.oneof(pick, fc.constant('self' as const)),
  }),
  ungroup: fc.record({ op: fc.constant('ungroup' as const), subscription: pick }),
  advance_invoice: fc.record({
    op: fc.constant('advance_invoice' as const),
    subscription: pick,
    force: fc.boolean(),
  }),
  proforma: fc.record({ op: fc.constant('proforma' as const), subscription: pick }),
  read: fc.record({
    op: fc.constant('read' as const),
    target: fc.constantFrom<ReadTarget>(
      'subscriptions',
      'invoices',
      'events',
      'customers',
      'components',
      'coupons',
      'groups',
    ),
  }),
};

/** How often each operation is generated: setup and billing operations dominate. */
const WEIGHTS: { readonly [K in CommandOp]: number } = {
  wait: 4,
  family: 1,
  product: 3,
  component: 3,
  coupon: 2,
  customer: 3,
  card: 3,
  subscribe: 6,
  allocate: 4,
  usage: 3,
  ingest: 2,
  adhoc_invoice: 3,
  issue_invoice: 3,
  pay_invoice: 3,
  void_invoice: 1,
  prepayment: 2,
  service_credit: 2,
  status: 5,
  migrate: 2,
  group: 2,
  ungroup: 1,
  advance_invoice: 1,
  proforma: 1,
  read: 2,
};

/** Whether a command does nothing at all (a `wait` of no time): shrinking fills sequences with them. */
export const isNoOp = (command: Command): boolean => command.op === 'wait' && command.hours === 0;

/**
 * One command of any operation, with the hours that pass before it.
 * @example fc.sample(commandArbitrary(), 1)[0].op
 */
export const commandArbitrary = (): fc.Arbitrary<Command> =>
  fc
    .tuple(
      // Cross shrinking turns a command that does not matter into `wait` (the first operation), so a
      // failing sequence shrinks to the few commands that make it fail.
      fc.oneof(
        { withCrossShrink: true },
        ...(Object.keys(operations) as CommandOp[]).map((op) => ({
          weight: WEIGHTS[op],
          arbitrary: operations[op] as fc.Arbitrary<Omit<Command, 'hours'>>,
        })),
      ),
      hoursArbitrary,
    )
    .map(([command, hours]) => ({ ...command, hours }) as Command);

/**
 * A sequence of commands that starts with a small catalog (a family, two products, a component of each
 * kind, two customers with cards) so that most later commands have rows to act on.
 * @example fc.assert(fc.property(commandSequenceArbitrary({ maxLength: 50 }), (commands) => commands.length > 0))
 */
export const commandSequenceArbitrary = (
  options: { readonly minLength?: number; readonly maxLength?: number } = {},
): fc.Arbitrary<Command[]> =>
  fc
    .array(commandArbitrary(), {
      minLength: options.minLength ?? 1,
      maxLength: options.maxLength ?? 200,
    })
    .map((commands) => [...SEED_CATALOG, ...commands]);

const perUnit = (price: string) => ({ pricing_scheme: 'per_unit', unit_price: price });

/** The catalog every sequence starts from. */
export const SEED_CATALOG: readonly Command[] = [
  { op: 'family', hours: 0 },
  {
    op: 'product',
    family: 0,
    hours: 0,
    product: { name: 'Monthly', price_in_cents: 1000, interval: 1, interval_unit: 'month', taxable: true },
  },
  {
    op: 'product',
    family: 0,
    hours: 0,
    product: {
      name: 'Weekly trial',
      price_in_cents: 700,
      interval: 7,
      interval_unit: 'day',
      trial_interval: 3,
      trial_interval_unit: 'day',
      trial_price_in_cents: 0,
    },
  },
  {
    op: 'component',
    family: 0,
    hours: 0,
    component: {
      kind: 'quantity_based_component',
      fields: { name: 'Seats', unit_name: 'seat', ...perUnit('5') },
    },
  },
  {
    op: 'component',
    family: 0,
    hours: 0,
    component: {
      kind: 'metered_component',
      fields: { name: 'Calls', unit_name: 'call', ...perUnit('0.01') },
    },
  },
  {
    op: 'component',
    family: 0,
    hours: 0,
    component: {
      kind: 'event_based_component',
      fields: { name: 'Events', unit_name: 'event', ...perUnit('0.5'), event_based_billing_metric_id: 1 },
    },
  },
  {
    op: 'customer',
    hours: 0,
    customer: {
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: 'ada@example.com',
      country: 'US',
      state: 'NY',
    },
  },
  { op: 'card', customer: 0, lastDigit: 1, hours: 0 },
  {
    op: 'customer',
    hours: 0,
    customer: { first_name: 'Alan', last_name: 'Turing', email: 'alan@example.com' },
  },
  { op: 'card', customer: 1, lastDigit: 2, hours: 0 },
];
