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

/** A `status` command's change: cancel now, delayed cancellation set or undone, hold, resume, reactivate. */
export type StatusAction =
  | 'cancel'
  | 'delayed_cancel'
  | 'undo_delayed_cancel'
  | 'hold'
  | 'resume'
  | 'reactivate';

/** A listing a `read` command reads. */
export type ReadTarget =
  | 'subscriptions'
  | 'invoices'
  | 'events'
  | 'customers'
  | 'components'
  | 'coupons'
  | 'groups';

/**
 * One step of a simulation: a REST request to make, or time to let pass. `hours` pass before it runs. A
 * `Pick` names a row among those the state has when the command runs (`requestFor`); a command with
 * nothing to act on is skipped.
 */
export type Command = {
  /** The hours that pass before the command runs. */
  readonly hours: number;
} & (
  | {
      /** Only lets time pass: renewals, dunning and trial ends happen on the way. */
      readonly op: 'wait';
    }
  | {
      /** Creates a product family. */
      readonly op: 'family';
    }
  | {
      /** Creates a product in a family. */
      readonly op: 'product';
      /** The family. */
      readonly family: Pick;
      /** The product's fields. */
      readonly product: ProductFields;
    }
  | {
      /** Creates a component in a family. */
      readonly op: 'component';
      /** The family. */
      readonly family: Pick;
      /** The component's kind and fields. */
      readonly component: ComponentRequest;
    }
  | {
      /** Creates a coupon in a family. */
      readonly op: 'coupon';
      /** The family. */
      readonly family: Pick;
      /** The coupon's fields, as the request body's `coupon`. */
      readonly coupon: Readonly<Record<string, unknown>>;
      /** A product of the family the coupon is restricted to, or null for none. */
      readonly restrictTo: Pick | null;
    }
  | {
      /** Creates a customer. */
      readonly op: 'customer';
      /** The customer's fields, as the request body's `customer`. */
      readonly customer: Readonly<Record<string, unknown>>;
    }
  | {
      /** Stores a test card for a customer. */
      readonly op: 'card';
      /** The customer. */
      readonly customer: Pick;
      /** The card's last digit, which the test gateway decides by: 1 succeeds, 2 fails payments, 3 all. */
      readonly lastDigit: 1 | 2 | 3;
    }
  | {
      /** Subscribes a customer to a product. */
      readonly op: 'subscribe';
      /** The product. */
      readonly product: Pick;
      /** The customer (the newest of its cards pays, unless `remittance`). */
      readonly customer: Pick;
      /** Whether the subscription is collected by remittance (also when the customer has no card). */
      readonly remittance: boolean;
      /** A coupon whose code the signup gives, or null. */
      readonly coupon: Pick | null;
    }
  | {
      /** Allocates a quantity-based or on/off component. */
      readonly op: 'allocate';
      /** The subscription. */
      readonly subscription: Pick;
      /** The component, among the quantity-based and on/off ones. */
      readonly component: Pick;
      /** The new quantity (modulo 2 for an on/off component). */
      readonly quantity: number;
    }
  | {
      /** Records metered usage. */
      readonly op: 'usage';
      /** The subscription. */
      readonly subscription: Pick;
      /** The component, among the metered ones. */
      readonly component: Pick;
      /** The quantity used. */
      readonly quantity: number;
    }
  | {
      /** Ingests usage events in bulk. */
      readonly op: 'ingest';
      /** The subscription the events name. */
      readonly subscription: Pick;
      /** How many events. */
      readonly count: number;
      /** The events' `bytes` property (from this value on); its parity chooses the stream. */
      readonly bytes: number;
    }
  | {
      /** Creates an ad hoc invoice. */
      readonly op: 'adhoc_invoice';
      /** The subscription. */
      readonly subscription: Pick;
      /** The invoice's fields, as the request body's `invoice`. */
      readonly request: Readonly<Record<string, unknown>>;
      /** Whether it is created as a draft. */
      readonly draft: boolean;
    }
  | {
      /** Issues a draft or pending invoice. */
      readonly op: 'issue_invoice';
      /** The invoice, among the draft and pending ones. */
      readonly invoice: Pick;
      /** What a failed payment does (not sent for a remittance invoice). */
      readonly onFailedPayment: 'leave_open_invoice' | 'rollback_to_pending' | 'initiate_dunning';
    }
  | {
      /** Records a payment on an open invoice. */
      readonly op: 'pay_invoice';
      /** The invoice, among the open ones with something due. */
      readonly invoice: Pick;
      /** The percentage of what is due to pay (all of it when that rounds to nothing). */
      readonly share: number;
      /** Where the money comes from. */
      readonly type: 'external' | 'prepayment' | 'service_credit';
    }
  | {
      /** Refunds part of a payment of a paid or open invoice (through the gateway when it took it). */
      readonly op: 'refund_invoice';
      /** The invoice, among those holding a payment with something left to refund. */
      readonly invoice: Pick;
      /** The percentage of what is left of the payment to refund (all of it when that rounds to nothing). */
      readonly share: number;
      /** Whether the refund's credit note settles it. */
      readonly applyCredit: boolean;
      /** Whether a refund of everything voids the invoice. */
      readonly voidInvoice: boolean;
    }
  | {
      /** Voids an open or pending invoice. */
      readonly op: 'void_invoice';
      /** The invoice, among the open and pending ones. */
      readonly invoice: Pick;
    }
  | {
      /** Records a prepayment. */
      readonly op: 'prepayment';
      /** The subscription. */
      readonly subscription: Pick;
      /** The amount, in minor units. */
      readonly cents: number;
    }
  | {
      /** Grants a service credit. */
      readonly op: 'service_credit';
      /** The subscription. */
      readonly subscription: Pick;
      /** The amount, in minor units. */
      readonly cents: number;
    }
  | {
      /** Changes a subscription's status. */
      readonly op: 'status';
      /** The subscription. */
      readonly subscription: Pick;
      /** The change. */
      readonly action: StatusAction;
    }
  | {
      /** Migrates a subscription to another product. */
      readonly op: 'migrate';
      /** The subscription. */
      readonly subscription: Pick;
      /** The product. */
      readonly product: Pick;
    }
  | {
      /** Adds a subscription to a group. */
      readonly op: 'group';
      /** The subscription. */
      readonly subscription: Pick;
      /** The subscription whose group (or payer) it joins, or `self`. */
      readonly target: Pick | 'self';
    }
  | {
      /** Removes a subscription from its group. */
      readonly op: 'ungroup';
      /** The subscription. */
      readonly subscription: Pick;
    }
  | {
      /** Issues an advance invoice. */
      readonly op: 'advance_invoice';
      /** The subscription. */
      readonly subscription: Pick;
      /** Whether an existing advance invoice is voided and issued again. */
      readonly force: boolean;
    }
  | {
      /** Creates a proforma invoice. */
      readonly op: 'proforma';
      /** The subscription. */
      readonly subscription: Pick;
    }
  | {
      /** Reads a listing. */
      readonly op: 'read';
      /** Which listing. */
      readonly target: ReadTarget;
    }
);

/** The kinds of command. */
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
  refund_invoice: fc.record({
    op: fc.constant('refund_invoice' as const),
    invoice: pick,
    share: fc.integer({ min: 1, max: 100 }),
    applyCredit: fc.boolean(),
    voidInvoice: fc.boolean(),
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
  refund_invoice: 2,
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
 * One command of any operation, with the hours that pass before it; `weights` overrides how often each
 * operation is generated.
 * @example fc.sample(commandArbitrary(), 1)[0].op
 */
export const commandArbitrary = (
  weights: { readonly [K in CommandOp]?: number } = {},
): fc.Arbitrary<Command> =>
  fc
    .tuple(
      // Cross shrinking turns a command that does not matter into `wait` (the first operation), so a
      // failing sequence shrinks to the few commands that make it fail.
      fc.oneof(
        { withCrossShrink: true },
        ...(Object.keys(operations) as CommandOp[]).map((op) => ({
          weight: weights[op] ?? WEIGHTS[op],
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
  options: {
    readonly minLength?: number;
    readonly maxLength?: number;
    /** How often each operation is generated, where not the default. */
    readonly weights?: { readonly [K in CommandOp]?: number };
  } = {},
): fc.Arbitrary<Command[]> =>
  fc
    .array(commandArbitrary(options.weights), {
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
