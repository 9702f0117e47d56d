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

export type ItemCategory = (typeof ITEM_CATEGORIES)[number];

/** One price of a component price point or segment: a bracket with its own id. */
export interface ComponentPrice extends PriceBracket {
  readonly id: number;
}

export interface Component {
  readonly id: number;
  readonly productFamilyId: number;
  readonly kind: ComponentKind;
  readonly name: string;
  readonly handle: string | null;
  readonly description: string | null;
  readonly unitName: string;
  readonly taxable: boolean;
  readonly taxCode: string | null;
  readonly accountingCode: string | null;
  readonly itemCategory: ItemCategory | null;
  readonly hideDateRangeOnInvoice: boolean;
  readonly allowFractionalQuantities: boolean;
  readonly displayOnHostedPage: boolean;
  /**
   * The component-level allocation defaults (after the allocation's own, before the call's); null defers to
   * the call's, then the site's.
   */
  readonly upgradeCharge: CreditType | null;
  readonly downgradeCredit: CreditType | null;
  /** Event-based components only: the site metric (`SiteConfig.metrics`) whose value is billed. */
  readonly eventBasedBillingMetricId: number | null;
  /** The price point whose pricing the component shows as its own. */
  readonly defaultPricePointId: number;
  readonly archivedAt: Instant | null;
  readonly createdAt: Instant;
  readonly updatedAt: Instant;
}

/** The prepaid side of a prepaid usage component's price point. */
export interface PrepaidPricing {
  readonly overagePricingScheme: PricingScheme;
  readonly overagePrices: readonly ComponentPrice[];
  readonly renewPrepaidAllocation: boolean;
  readonly rolloverPrepaidRemainder: boolean;
  readonly expirationInterval: number | null;
  readonly expirationIntervalUnit: ExpirationIntervalUnit | null;
}

export type ComponentPricePointType = 'default' | 'catalog' | 'custom';

export interface ComponentPricePoint {
  readonly id: number;
  readonly componentId: number;
  readonly name: string;
  readonly handle: string | null;
  /** `default` for the price point created with its component, `catalog` for those added later. */
  readonly type: ComponentPricePointType;
  readonly pricingScheme: PricingScheme;
  /** Validated brackets; a per_unit price point holds exactly one (`1–∞ @ unit price`). */
  readonly prices: readonly ComponentPrice[];
  readonly taxIncluded: boolean;
  readonly useSiteExchangeRate: boolean;
  /** The billing interval of the price point; null follows the subscription's product. */
  readonly interval: number | null;
  readonly intervalUnit: IntervalUnit | null;
  /** Prepaid usage components only. */
  readonly prepaid: PrepaidPricing | null;
  readonly archivedAt: Instant | null;
  readonly createdAt: Instant;
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
  readonly id: number;
  readonly componentId: number;
  readonly pricePointId: number;
  readonly eventBasedBillingMetricId: number;
  readonly values: SegmentValues;
  readonly pricingScheme: PricingScheme;
  readonly prices: readonly ComponentPrice[];
  readonly createdAt: Instant;
  readonly updatedAt: Instant;
}

/** A price as it arrives, before its id is given. */
export type PriceInput = PriceBracket;

/** The unit price a per_unit price point charges. @example perUnitPrice(pricePoint) // '1.5' */
export const perUnitPrice = (
  pricePoint: Pick<ComponentPricePoint, 'pricingScheme' | 'prices'>,
): Dec | null => (pricePoint.pricingScheme === 'per_unit' ? (pricePoint.prices[0]?.unitPrice ?? null) : null);
