/** Features: templates and the catalog items that attach them to products and components. */
export {
  checkPeriodicity,
  checkTemplate,
  FEATURE_KINDS,
  FEATURE_VALUE_TYPES,
  isFeatureKey,
  normalizeFeatureValue,
  PERIODICITY_UNITS,
  valueTypeOf,
} from './rules.js';
export type {
  CatalogFeature,
  FeatureKind,
  FeatureOwnerType,
  FeaturePricePointType,
  FeatureTemplate,
  FeatureValueType,
  PeriodicityUnit,
} from './types.js';
