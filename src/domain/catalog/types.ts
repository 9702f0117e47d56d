/** Catalog records: product families, products and their price points. */
import type { Dec } from '../../kernel/money.js';
import type { Instant } from '../../kernel/time.js';

export type IntervalUnit = 'day' | 'month';
export type ExpirationIntervalUnit = 'day' | 'month' | 'never';

export interface ProductFamily {
  readonly id: number;
  readonly name: string;
  readonly handle: string;
  readonly description: string | null;
  readonly accountingCode: string | null;
  readonly createdAt: Instant;
  readonly updatedAt: Instant;
}

/** What a product charges, in one price point. Amounts in the site currency. */
export interface ProductPricing {
  readonly price: Dec;
  readonly interval: number;
  readonly intervalUnit: IntervalUnit;
  readonly initialCharge: Dec | null;
  readonly trialPrice: Dec | null;
  readonly trialInterval: number | null;
  readonly trialIntervalUnit: IntervalUnit | null;
  readonly expirationInterval: number | null;
  readonly expirationIntervalUnit: ExpirationIntervalUnit | null;
}

export interface Product {
  readonly id: number;
  readonly productFamilyId: number;
  readonly name: string;
  readonly handle: string | null;
  readonly description: string | null;
  readonly accountingCode: string | null;
  readonly requireCreditCard: boolean;
  readonly requestCreditCard: boolean;
  readonly taxable: boolean;
  readonly taxCode: string | null;
  readonly initialChargeAfterTrial: boolean;
  readonly versionNumber: number;
  /** The price point whose pricing the product shows as its own. */
  readonly defaultPricePointId: number;
  readonly archivedAt: Instant | null;
  readonly createdAt: Instant;
  readonly updatedAt: Instant;
}

export interface ProductPricePoint extends ProductPricing {
  readonly id: number;
  readonly productId: number;
  readonly name: string;
  readonly handle: string | null;
  readonly type: 'default' | 'catalog' | 'custom';
  readonly archivedAt: Instant | null;
  readonly createdAt: Instant;
  readonly updatedAt: Instant;
}
