/** Component allocations: records, and the proration rules as pure functions. */
export {
  type BillingPeriod,
  capCredit,
  creditable,
  LEGACY_DOWNGRADE_SCHEMES,
  LEGACY_UPGRADE_SCHEMES,
  type LegacyDowngradeScheme,
  type LegacyUpgradeScheme,
  legacyDowngrade,
  legacyDowngradeName,
  legacyUpgrade,
  legacyUpgradeName,
  prorate,
  remainingShare,
  resolveSetting,
  rollUp,
} from './proration.js';
export { type ChargedShare, type ProrationLine, prorationLine } from './proration-line.js';
export type {
  AccruedCharge,
  Allocation,
  AllocationDirection,
  AllocationPayment,
  CustomPrice,
  SubscriptionComponent,
  Usage,
} from './types.js';
