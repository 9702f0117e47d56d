/**
 * Features: site-level templates, and catalog items that attach a template with a value to
 * a product or a component. Both are archived by setting `archivedAt` and restored by clearing it.
 */
import type { Instant } from '../../kernel/time.js';

/** `access_right`: yes or no; `usage_limit`: an allowance per period; `service_right`: a free value. */
export type FeatureKind = 'access_right' | 'usage_limit' | 'service_right';

/** The type of a feature's value: `boolean` for access rights, `numeric` for usage limits. */
export type FeatureValueType = 'text' | 'boolean' | 'numeric';

/** The unit of a usage limit's period. */
export type PeriodicityUnit = 'hour' | 'day' | 'week' | 'month' | 'year';

/** What a catalog item is attached to. */
export type FeatureOwnerType = 'product' | 'component';

/** The kind of price point a catalog item is scoped to. */
export type FeaturePricePointType = 'ProductPricePoint' | 'PricePoint';

export interface FeatureTemplate {
  readonly id: number;
  /** Lowercase letters, digits and underscores; unique in the site; never changes. */
  readonly key: string;
  readonly name: string;
  readonly description: string | null;
  readonly kind: FeatureKind;
  /** Required for usage limits (`requests`, `GB`). */
  readonly unit: string | null;
  readonly valueType: FeatureValueType;
  /** Pre-fills the value of new catalog items; shaped by `valueType`. */
  readonly defaultValue: string | null;
  /** Usage limits only; both set or both null. */
  readonly defaultPeriodicityInterval: number | null;
  readonly defaultPeriodicityUnit: PeriodicityUnit | null;
  readonly archivedAt: Instant | null;
  readonly createdAt: Instant;
  readonly updatedAt: Instant;
}

export interface CatalogFeature {
  readonly id: number;
  readonly templateId: number;
  readonly ownerType: FeatureOwnerType;
  readonly ownerId: number;
  /** `"true"`/`"false"` for access rights, a decimal string for usage limits, any text otherwise. */
  readonly value: string;
  /** Usage limits only (both set); null otherwise. */
  readonly periodicityInterval: number | null;
  readonly periodicityUnit: PeriodicityUnit | null;
  /** Null when the item applies to every price point of its owner. */
  readonly pricePointType: FeaturePricePointType | null;
  readonly pricePointId: number | null;
  readonly archivedAt: Instant | null;
  readonly createdAt: Instant;
  readonly updatedAt: Instant;
}
