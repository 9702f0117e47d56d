/**
 * Components: the metered, quantity-based, on/off, prepaid and event-based items a subscription adds to
 * its product; their price points; and the segments that price an event-based component's usage by the
 * values of its metric's event properties.
 */
import type { Dec } from '../../kernel/money.js';
import type { Instant } from '../../kernel/time.js';
import type { PriceBracket, PricingScheme } from '../pricing/types.js';
import type { CreditType } from '../site/config.js';
import type { ExpirationIntervalUnit, IntervalUnit } from './types.js';

/** The kinds of component, as the API spells them (`Component.kind`). */
export const COMPONENT_KINDS = [
  'metered_component',
  'quantity_based_component',
  'on_off_component',
  'prepaid_usage_component',
  'event_based_component',
] as const;

/** What kind of usage a component bills. */
export type ComponentKind = (typeof COMPONENT_KINDS)[number];

/** The item categories of the API (`ItemCategory`). */
export const ITEM_CATEGORIES = [
  'Business Software',
  'Consumer Software',
  'Digital Services',
  'Physical Goods',
  'Other',
] as const;

/** The category a component is sold under, as the official API lists them. */
export type ItemCategory = (typeof ITEM_CATEGORIES)[number];

/** One price of a component price point or segment: a bracket with its own id. */
export interface ComponentPrice extends PriceBracket {
  /** The price's id. */
  readonly id: number;
}

/**
 * A component of a product family: an item a subscription adds to its product, billed by its kind (metered,
 * quantity-based, on/off, prepaid usage or event-based) and priced by its price points.
 */
export interface Component {
  /** The component's id. */
  readonly id: number;
  /** The family it belongs to. */
  readonly productFamilyId: number;
  /** What kind of usage it bills. */
  readonly kind: ComponentKind;
  /** Its name. */
  readonly name: string;
  /** Its handle, unique in the site, or null. */
  readonly handle: string | null;
  /** Its description, or null. */
  readonly description: string | null;
  /** The name of its unit ("seat", "GB"). */
  readonly unitName: string;
  /** Whether the site's taxes apply to its charges. */
  readonly taxable: boolean;
  /** Its tax code, or null. */
  readonly taxCode: string | null;
  /** Its accounting code, or null. */
  readonly accountingCode: string | null;
  /** Its item category, or null. */
  readonly itemCategory: ItemCategory | null;
  /** Whether its invoice lines leave out the period they cover. */
  readonly hideDateRangeOnInvoice: boolean;
  /** Whether quantities may have decimals. */
  readonly allowFractionalQuantities: boolean;
  /** Whether signup pages show it. */
  readonly displayOnHostedPage: boolean;
  /**
   * The component-level allocation defaults (after the allocation's own, before the call's); null defers to
   * the call's, then the site's.
   */
  readonly upgradeCharge: CreditType | null;
  /** The component-level default for a decrease's credit; null defers to the call's, then the site's. */
  readonly downgradeCredit: CreditType | null;
  /** Event-based components only: the site metric (`SiteConfig.metrics`) whose value is billed. */
  readonly eventBasedBillingMetricId: number | null;
  /** The price point whose pricing the component shows as its own. */
  readonly defaultPricePointId: number;
  /** When it was archived, or null. */
  readonly archivedAt: Instant | null;
  /** When it was created. */
  readonly createdAt: Instant;
  /** When it last changed. */
  readonly updatedAt: Instant;
}

/** The prepaid side of a prepaid usage component's price point. */
export interface PrepaidPricing {
  /** How usage beyond the purchased quantity is priced. */
  readonly overagePricingScheme: PricingScheme;
  /** The brackets of the overage pricing. */
  readonly overagePrices: readonly ComponentPrice[];
  /** Whether the renewal buys the purchased quantity again. */
  readonly renewPrepaidAllocation: boolean;
  /** Whether what is left of a purchase carries into the next period. */
  readonly rolloverPrepaidRemainder: boolean;
  /** How long rolled-over units last, in `expirationIntervalUnit`s (stored, not applied), or null. */
  readonly expirationInterval: number | null;
  /** The unit of `expirationInterval`, or null. */
  readonly expirationIntervalUnit: ExpirationIntervalUnit | null;
}

/**
 * `default` (made with the component), `catalog` (added later), or `custom` (the official API's
 * per-subscription kind, which the engine does not make).
 */
export type ComponentPricePointType = 'default' | 'catalog' | 'custom';

/**
 * A price point of a component: a pricing scheme and its brackets, and for prepaid usage the overage pricing.
 */
export interface ComponentPricePoint {
  /** The price point's id. */
  readonly id: number;
  /** The component it prices. */
  readonly componentId: number;
  /** Its name. */
  readonly name: string;
  /** Its handle, unique for the component, or null. */
  readonly handle: string | null;
  /** `default` for the price point created with its component, `catalog` for those added later. */
  readonly type: ComponentPricePointType;
  /** How a quantity is priced: `per_unit`, `volume`, `tiered` or `stairstep`. */
  readonly pricingScheme: PricingScheme;
  /** Validated brackets; a per_unit price point holds exactly one (`1–∞ @ unit price`). */
  readonly prices: readonly ComponentPrice[];
  /** Whether its prices include tax. */
  readonly taxIncluded: boolean;
  /** Whether prices in other currencies follow the site's exchange rate. */
  readonly useSiteExchangeRate: boolean;
  /** The billing interval of the price point; null follows the subscription's product. */
  readonly interval: number | null;
  /** The unit of `interval`, or null. */
  readonly intervalUnit: IntervalUnit | null;
  /** Prepaid usage components only. */
  readonly prepaid: PrepaidPricing | null;
  /** When it was archived, or null. */
  readonly archivedAt: Instant | null;
  /** When it was created. */
  readonly createdAt: Instant;
  /** When it last changed. */
  readonly updatedAt: Instant;
}

/** A value of an event property a segment matches: text, a number or a boolean. */
export type SegmentValue = string | number | boolean;

/** The four segment property values; a null slot matches no property (slots fill from the first). */
export type SegmentValues = readonly [
  SegmentValue | null,
  SegmentValue | null,
  SegmentValue | null,
  SegmentValue | null,
];

/** The pricing of an event-based component's usage for one combination of event property values. */
export interface Segment {
  /** The segment's id. */
  readonly id: number;
  /** The event-based component it prices. */
  readonly componentId: number;
  /** The price point it belongs to. */
  readonly pricePointId: number;
  /** The metric whose event properties it matches. */
  readonly eventBasedBillingMetricId: number;
  /** The property values it matches, one per segment property of the metric, in slot order. */
  readonly values: SegmentValues;
  /** How its usage is priced. */
  readonly pricingScheme: PricingScheme;
  /** The brackets of its pricing. */
  readonly prices: readonly ComponentPrice[];
  /** When it was created. */
  readonly createdAt: Instant;
  /** When it last changed. */
  readonly updatedAt: Instant;
}

/** A price as it arrives, before its id is given. */
export type PriceInput = PriceBracket;

/** The unit price a per_unit price point charges. @example perUnitPrice(pricePoint) // '1.5' */
export const perUnitPrice = (
  pricePoint: Pick<ComponentPricePoint, 'pricingScheme' | 'prices'>,
): Dec | null => (pricePoint.pricingScheme === 'per_unit' ? (pricePoint.prices[0]?.unitPrice ?? null) : null);
