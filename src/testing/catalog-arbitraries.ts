/**
 * fast-check arbitraries for catalog and customer request bodies, as the REST API takes them: products,
 * components of every kind under every pricing scheme, coupons and customers. Every generated body is
 * valid on its own; what it refers to (a family, a product) is chosen when it is sent.
 */
import fc from 'fast-check';
import { decimalString } from './arbitraries.js';

/** The component kinds and the path segment that creates each in a family. */
export const COMPONENT_KINDS_CREATED = {
  /** `POST /product_families/{id}/quantity_based_components.json`. */
  quantity_based_component: 'quantity_based_components',
  /** `POST /product_families/{id}/on_off_components.json`. */
  on_off_component: 'on_off_components',
  /** `POST /product_families/{id}/metered_components.json`. */
  metered_component: 'metered_components',
  /** `POST /product_families/{id}/prepaid_usage_components.json`. */
  prepaid_usage_component: 'prepaid_usage_components',
  /** `POST /product_families/{id}/event_based_components.json`. */
  event_based_component: 'event_based_components',
} as const;

/** A component kind, as the request body's envelope names it. */
export type ComponentKindCreated = keyof typeof COMPONENT_KINDS_CREATED;

/** The body of `POST /product_families/{id}/products.json` (the `product` envelope's fields). */
export interface ProductFields {
  /** The product's name. */
  readonly name: string;
  /** The price of a period, in cents. */
  readonly price_in_cents: number;
  /** The length of a period, in `interval_unit`s. */
  readonly interval: number;
  /** The unit of `interval`. */
  readonly interval_unit: 'day' | 'month';
  /** The trial's length, in `trial_interval_unit`s. */
  readonly trial_interval?: number;
  /** The unit of `trial_interval`. */
  readonly trial_interval_unit?: 'day' | 'month';
  /** The trial's price, in cents. */
  readonly trial_price_in_cents?: number;
  /** A one-time charge at signup, in cents. */
  readonly initial_charge_in_cents?: number;
  /** How long a subscription lasts, in `expiration_interval_unit`s. */
  readonly expiration_interval?: number;
  /** The unit of `expiration_interval`. */
  readonly expiration_interval_unit?: 'day' | 'month';
  /** Whether a signup must give a payment profile. */
  readonly require_credit_card?: boolean;
  /** Whether the site's taxes apply. */
  readonly taxable?: boolean;
}

/**
 * Product fields: daily or monthly intervals, optional trial, initial charge and expiry.
 * @example fc.sample(productArbitrary(), 1)[0].interval_unit // 'month' or 'day'
 */
export const productArbitrary = (): fc.Arbitrary<ProductFields> =>
  fc
    .record({
      name: fc.constantFrom('Basic', 'Pro', 'Team', 'Enterprise'),
      price_in_cents: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 100_000 })),
      // Day intervals stay a week or longer so that a simulated year renews hundreds of times, not thousands.
      interval: fc.integer({ min: 1, max: 3 }),
      interval_unit: fc.constantFrom('day' as const, 'month' as const),
      trial: fc.option(
        fc.record({
          trial_interval: fc.integer({ min: 1, max: 14 }),
          trial_interval_unit: fc.constant('day' as const),
          trial_price_in_cents: fc.constantFrom(0, 100),
        }),
        { nil: undefined },
      ),
      extras: fc.record(
        {
          initial_charge_in_cents: fc.integer({ min: 1, max: 5_000 }),
          expiration_interval: fc.integer({ min: 20, max: 120 }),
          expiration_interval_unit: fc.constant('day' as const),
          require_credit_card: fc.boolean(),
          taxable: fc.boolean(),
        },
        { requiredKeys: [] },
      ),
    })
    .map(({ trial, extras, ...fields }): ProductFields => {
      const interval = fields.interval_unit === 'day' ? fields.interval * 7 : fields.interval;
      const expiry =
        extras.expiration_interval === undefined
          ? {}
          : { expiration_interval: extras.expiration_interval, expiration_interval_unit: 'day' as const };
      const { expiration_interval: _interval, expiration_interval_unit: _unit, ...rest } = extras;
      return {
        ...fields,
        interval,
        name: `${fields.name} ${fields.price_in_cents}`,
        ...trial,
        ...rest,
        ...expiry,
      };
    });

/** One bracket of a tiered, volume or stairstep price list. */
export interface PriceBracket {
  /** The bracket's first quantity. */
  readonly starting_quantity: number;
  /** Its last quantity; absent for the open last bracket. */
  readonly ending_quantity?: number;
  /** The price of each unit in it, a decimal string. */
  readonly unit_price: string;
}

/** Contiguous brackets from 1: each ends where the next starts, the last is open. */
export const bracketsArbitrary = (): fc.Arbitrary<PriceBracket[]> =>
  fc
    .array(fc.tuple(fc.integer({ min: 1, max: 50 }), decimalString(100, 2)), { minLength: 1, maxLength: 4 })
    .map((widths) => {
      let start = 1;
      return widths.map(([width, price], index) => {
        const bracket: PriceBracket =
          index === widths.length - 1
            ? { starting_quantity: start, unit_price: price }
            : { starting_quantity: start, ending_quantity: start + width - 1, unit_price: price };
        start += width;
        return bracket;
      });
    });

/** Pricing of a component: per unit with a unit price, or a scheme with brackets. */
export const componentPricingArbitrary = (): fc.Arbitrary<Record<string, unknown>> =>
  fc.oneof(
    decimalString(100, 2).map((price) => ({ pricing_scheme: 'per_unit', unit_price: price })),
    fc
      .tuple(fc.constantFrom('tiered', 'volume', 'stairstep'), bracketsArbitrary())
      .map(([scheme, prices]) => ({ pricing_scheme: scheme, prices })),
  );

/** A component create request: its kind and the fields of its envelope. */
export interface ComponentRequest {
  /** The component's kind, which names the envelope and the path. */
  readonly kind: ComponentKindCreated;
  /** The envelope's fields (name, unit name, pricing, …). */
  readonly fields: Readonly<Record<string, unknown>>;
}

/**
 * Components of every kind under every pricing scheme. Event-based components name `metricId`, a metric
 * the site config must define (see `simulationConfig`).
 * @example fc.sample(componentArbitrary(7), 1)[0].kind
 */
export const componentArbitrary = (metricId = 1): fc.Arbitrary<ComponentRequest> =>
  fc
    .tuple(
      fc.constantFrom(...(Object.keys(COMPONENT_KINDS_CREATED) as ComponentKindCreated[])),
      componentPricingArbitrary(),
      componentPricingArbitrary(),
      fc.constantFrom('Seats', 'Support', 'API calls', 'Storage'),
      fc.boolean(),
    )
    .map(([kind, pricing, overage, name, taxable]): ComponentRequest => {
      const base = { name, unit_name: 'unit', taxable };
      switch (kind) {
        case 'on_off_component':
          return { kind, fields: { name, unit_price: pricing['unit_price'] ?? '5', taxable } };
        case 'prepaid_usage_component':
          return {
            kind,
            fields: {
              ...base,
              ...pricing,
              overage_pricing: overage['prices'] === undefined ? { ...overage, prices: [] } : overage,
            },
          };
        case 'event_based_component':
          return { kind, fields: { ...base, ...pricing, event_based_billing_metric_id: metricId } };
        default:
          return { kind, fields: { ...base, ...pricing } };
      }
    })
    .map((request) => ({ ...request, fields: fixOverage(request.fields) }));

/** Per-unit overage pricing is written as one open bracket, which the API reads for prepaid overage. */
function fixOverage(fields: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> {
  const overage = fields['overage_pricing'];
  if (overage === undefined || overage === null || typeof overage !== 'object') return fields;
  const record = overage as Readonly<Record<string, unknown>>;
  if (record['pricing_scheme'] !== 'per_unit') return fields;
  return {
    ...fields,
    overage_pricing: {
      pricing_scheme: 'per_unit',
      prices: [{ starting_quantity: 1, unit_price: record['unit_price'] ?? '1' }],
    },
  };
}

/** A coupon create request: the `coupon` fields (a percentage or an amount). */
export const couponArbitrary = (): fc.Arbitrary<Record<string, unknown>> =>
  fc
    .tuple(
      fc.oneof(
        decimalString(100, 2).map((percentage) => ({ percentage })),
        fc.integer({ min: 1, max: 5_000 }).map((amount_in_cents) => ({ amount_in_cents })),
      ),
      fc.boolean(),
      fc.boolean(),
      fc.constantFrom('compound', 'full-price'),
      fc.nat({ max: 1_000_000 }),
    )
    .map(([discount, recurring, stackable, compounding_strategy, n]) => ({
      name: `Coupon ${n}`,
      code: `CODE${n}`,
      description: 'generated',
      ...discount,
      recurring,
      stackable,
      compounding_strategy,
    }));

/** A customer create request: the `customer` fields, sometimes with an address in a taxed state. */
export const customerArbitrary = (): fc.Arbitrary<Record<string, unknown>> =>
  fc
    .tuple(
      fc.constantFrom('Ada', 'Alan', 'Grace', 'Edsger'),
      fc.constantFrom('Lovelace', 'Turing', 'Hopper', 'Dijkstra'),
      fc.nat({ max: 1_000_000 }),
      fc.option(fc.constantFrom(['US', 'NY'] as const, ['US', 'CA'] as const, ['FR', null] as const), {
        nil: null,
      }),
    )
    .map(([first_name, last_name, n, place]) => ({
      first_name,
      last_name,
      email: `${first_name.toLowerCase()}${n}@example.com`,
      reference: `ref-${n}`,
      ...(place === null ? {} : { country: place[0], ...(place[1] === null ? {} : { state: place[1] }) }),
    }));
