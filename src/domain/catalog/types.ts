/** Catalog records: product families, products and their price points. */
import type { Dec } from '../../kernel/money.js';
import type { Instant } from '../../kernel/time.js';

export type IntervalUnit = 'day' | 'month';
export type ExpirationIntervalUnit = 'day' | 'month' | 'never';

/** A product family: the group of products, components and coupons a site sells together. */
export interface ProductFamily {
  /** The family's id. */
  readonly id: number;
  /** Its name. */
  readonly name: string;
  /** Its handle, unique in the site (`handle:<handle>` may stand for its id in a path). */
  readonly handle: string;
  /** Its description, or null. */
  readonly description: string | null;
  /** Its accounting code, or null. */
  readonly accountingCode: string | null;
  /** When it was created. */
  readonly createdAt: Instant;
  /** When it last changed. */
  readonly updatedAt: Instant;
}

/** What a product charges, in one price point. Amounts in the site currency. */
export interface ProductPricing {
  /** The price of one billing period. */
  readonly price: Dec;
  /** The length of a billing period, in `intervalUnit`s. */
  readonly interval: number;
  /** The unit of `interval`: days or months. */
  readonly intervalUnit: IntervalUnit;
  /** A one-time charge at signup (or at the trial's end), or null. */
  readonly initialCharge: Dec | null;
  /** The price of the trial period, or null when there is no trial. */
  readonly trialPrice: Dec | null;
  /** The trial's length, in `trialIntervalUnit`s, or null. */
  readonly trialInterval: number | null;
  /** The unit of `trialInterval`, or null. */
  readonly trialIntervalUnit: IntervalUnit | null;
  /** How long a subscription lasts before it expires, in `expirationIntervalUnit`s, or null. */
  readonly expirationInterval: number | null;
  /** The unit of `expirationInterval` (`never`: no expiry), or null. */
  readonly expirationIntervalUnit: ExpirationIntervalUnit | null;
}

/** A product of the catalog: what a subscription subscribes to, priced by its price points. */
export interface Product {
  /** The product's id. */
  readonly id: number;
  /** The family it belongs to. */
  readonly productFamilyId: number;
  /** Its name. */
  readonly name: string;
  /** Its handle, unique in the site, or null. */
  readonly handle: string | null;
  /** Its description, or null. */
  readonly description: string | null;
  /** Its accounting code, or null. */
  readonly accountingCode: string | null;
  /** Whether a signup must give a payment profile. */
  readonly requireCreditCard: boolean;
  /** Whether a signup page asks for a payment profile. */
  readonly requestCreditCard: boolean;
  /** Whether the site's taxes apply to its charges. */
  readonly taxable: boolean;
  /** Its tax code, or null. */
  readonly taxCode: string | null;
  /** Whether the initial charge is billed when the trial ends rather than at signup. */
  readonly initialChargeAfterTrial: boolean;
  /** Its version: 1, then one more each time its default pricing changes. */
  readonly versionNumber: number;
  /** The price point whose pricing the product shows as its own. */
  readonly defaultPricePointId: number;
  /** When it was archived, or null while it is for sale. */
  readonly archivedAt: Instant | null;
  /** When it was created. */
  readonly createdAt: Instant;
  /** When it last changed. */
  readonly updatedAt: Instant;
}

/** A price point of a product: one way to price it (period, price, trial, expiry). */
export interface ProductPricePoint extends ProductPricing {
  /** The price point's id. */
  readonly id: number;
  /** The product it prices. */
  readonly productId: number;
  /** Its name. */
  readonly name: string;
  /** Its handle, unique for the product, or null. */
  readonly handle: string | null;
  /**
   * `default` (made with the product), `catalog` (added later), or `custom` (the official API's
   * per-subscription kind, which the engine does not make).
   */
  readonly type: 'default' | 'catalog' | 'custom';
  /** When it was archived, or null. */
  readonly archivedAt: Instant | null;
  /** When it was created. */
  readonly createdAt: Instant;
  /** When it last changed. */
  readonly updatedAt: Instant;
}
