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

/**
 * A feature template of the site: a named right or limit that catalog items attach to products and components
 * with a value.
 */
export interface FeatureTemplate {
  /** The template's id. */
  readonly id: number;
  /** Lowercase letters, digits and underscores; unique in the site; never changes. */
  readonly key: string;
  /** Its name. */
  readonly name: string;
  /** Its description, or null. */
  readonly description: string | null;
  /** An access right, a usage limit or a service right; fixed once a catalog item uses it. */
  readonly kind: FeatureKind;
  /** Required for usage limits (`requests`, `GB`). */
  readonly unit: string | null;
  /** The type of its values; fixed once a catalog item uses it. */
  readonly valueType: FeatureValueType;
  /** Pre-fills the value of new catalog items; shaped by `valueType`. */
  readonly defaultValue: string | null;
  /** Usage limits only; both set or both null. */
  readonly defaultPeriodicityInterval: number | null;
  /** The unit of `defaultPeriodicityInterval`, or null. */
  readonly defaultPeriodicityUnit: PeriodicityUnit | null;
  /** When it was archived, or null. */
  readonly archivedAt: Instant | null;
  /** When it was created. */
  readonly createdAt: Instant;
  /** When it last changed. */
  readonly updatedAt: Instant;
}

/**
 * A catalog item: a feature template attached with a value to a product or a component, optionally to one of
 * its price points only.
 */
export interface CatalogFeature {
  /** The item's id. */
  readonly id: number;
  /** The template it attaches. */
  readonly templateId: number;
  /** Whether it is attached to a product or a component. */
  readonly ownerType: FeatureOwnerType;
  /** The product's or component's id. */
  readonly ownerId: number;
  /** `"true"`/`"false"` for access rights, a decimal string for usage limits, any text otherwise. */
  readonly value: string;
  /** Usage limits only (both set); null otherwise. */
  readonly periodicityInterval: number | null;
  /** The unit of `periodicityInterval`, or null. */
  readonly periodicityUnit: PeriodicityUnit | null;
  /** Null when the item applies to every price point of its owner. */
  readonly pricePointType: FeaturePricePointType | null;
  /** The price point it is scoped to, or null for every one. */
  readonly pricePointId: number | null;
  /** When it was archived, or null. */
  readonly archivedAt: Instant | null;
  /** When it was created. */
  readonly createdAt: Instant;
  /** When it last changed. */
  readonly updatedAt: Instant;
}
