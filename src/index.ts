/**
 * billing-core: a pure recurring-billing engine. The public surface: the site, the REST handler, time,
 * and the domain functions a host calls directly.
 * @module billing-core
 */
export {
  callRoute,
  type RouteAnswer,
  type RouteCall,
  type WireError,
} from './api/call-route.js';
export { handle } from './api/handle.js';
export { type AsyncHandleContext, type AsyncHandleResult, handleAsync } from './api/handle-async.js';
export { addOneTimeToken, type OneTimeTokenInput } from './api/payment/one-time-tokens.js';
export type { ApiRequest, ApiResponse, HandleContext, HandleFault, HandleResult } from './api/types.js';
export type {
  WireBody,
  WireMethod,
  WireParams,
  WirePath,
  WireQuery,
  WireResponse,
  WireRoute,
} from './api/wire-types.js';
export {
  type AccruedCharge,
  type Allocation,
  type AllocationDirection,
  type AllocationPayment,
  type BillingPeriod,
  type CustomPrice,
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
  type SubscriptionComponent,
  type Usage,
} from './domain/allocation/index.js';
export {
  COMPONENT_KINDS,
  type Component,
  type ComponentKind,
  type ComponentPrice,
  type ComponentPricePoint,
  type ComponentPricePointType,
  ITEM_CATEGORIES,
  type ItemCategory,
  type PrepaidPricing,
  perUnitPrice,
  type Segment,
  type SegmentValue,
  type SegmentValues,
} from './domain/catalog/component.js';
export {
  resolvePriceList,
  SEGMENT_BULK_CREATE_LIMIT,
  SEGMENT_BULK_UPDATE_LIMIT,
  segmentKey,
  segmentValuesProblem,
  taxCodeProblem,
} from './domain/catalog/component-rules.js';
export type { Product, ProductFamily, ProductPricePoint } from './domain/catalog/types.js';
export {
  type CouponAvailability,
  couponAppliesTo,
  couponAvailability,
  normalizeCouponCode,
  recurringScheme,
} from './domain/coupon/index.js';
export type {
  CompoundingStrategy,
  Coupon,
  CouponProductUse,
  CouponRestriction,
  CouponSubcode,
  DiscountType,
  RecurringScheme,
  RestrictionType,
} from './domain/coupon/types.js';
export {
  ENTITY_IDENTIFIER_KINDS,
  type EntityIdentifierKind,
  NO_TAX_IDENTIFIER,
  presentTaxIdentifier,
  readTaxIdentifierUpdate,
  resolveTaxIdentifier,
  type TaxIdentifierError,
  type TaxIdentifierState,
  type TaxIdentifierUpdate,
} from './domain/customer/tax-identifier.js';
export type { Customer } from './domain/customer/types.js';
export { admit, type Email, type EmailKind, type SlidingWindow } from './domain/email/index.js';
export type { SiteEvent } from './domain/event-log/types.js';
export type {
  CatalogFeature,
  FeatureKind,
  FeatureOwnerType,
  FeaturePricePointType,
  FeatureTemplate,
  FeatureValueType,
  PeriodicityUnit,
} from './domain/feature/types.js';
export {
  GROUP_TARGET_TYPES,
  type GroupMembership,
  type GroupTargetType,
  nextMembers,
  rootCustomer,
  type SubscriptionGroup,
  sameHierarchy,
} from './domain/group/index.js';
export {
  type BreakoutBuilders,
  type CalcCoupon,
  type CalcLine,
  type CalcTax,
  calculateInvoice,
  calculateInvoiceReference,
  createInvoiceCalculator,
  type InvoiceCalculation,
  type InvoiceCalculationInput,
  type InvoiceCalculationWith,
  type InvoiceCalculator,
  type InvoiceTotals,
} from './domain/invoice/calculation/index.js';
export {
  canProforma,
  PROFORMA_TRANSITIONS,
  type ProformaAction,
  type ProformaExport,
  type ProformaInvoice,
  type ProformaStatus,
} from './domain/invoice/proforma.js';
export type { Invoice, InvoiceLine, InvoiceStatus } from './domain/invoice/types.js';
export type { OneTimeToken } from './domain/one-time-token/index.js';
export { recordedGateway } from './domain/payment/outcome-book.js';
export { testGateway } from './domain/payment/test-gateway.js';
export type {
  AsyncPaymentGateway,
  PaymentAttempt,
  PaymentGateway,
  PaymentOutcome,
  PaymentProfile,
  SettledPayment,
} from './domain/payment/types.js';
export {
  type LinkRejection,
  type ManagementLink,
  managementLinkFor,
  verifyManagementLink,
} from './domain/portal/index.js';
export {
  type PriceBracket,
  type PricingScheme,
  priceOverage,
  priceQuantity,
  type QuantityCost,
  validateBrackets,
} from './domain/pricing/index.js';
export type { SiteConfig, SiteMetric, SiteSettings, SiteTaxRate } from './domain/site/config.js';
export { type Checked, checkSiteConfig, SiteConfigError } from './domain/site/config-check.js';
export { periodOf } from './domain/subscription/schedule.js';
export { can, type SubscriptionCommand, TRANSITIONS } from './domain/subscription/transitions.js';
export type { Subscription, SubscriptionState } from './domain/subscription/types.js';
export { type AsyncAdvanceResult, advance, advanceAsync } from './engine/advance.js';
export { applyChanges, type Change } from './engine/changes.js';
export {
  type CouponSource,
  findCouponByCode,
  type ResolvedCouponCode,
  recordCouponUse,
  resolveCouponCode,
} from './engine/coupon/coupon-use.js';
export { emailOutbox } from './engine/email/emails.js';
export { changedPieceLines, PieceAssembler, pieceLines } from './engine/persistence/pieces.js';
export { verifyPortalLink } from './engine/portal/access.js';
export { createSite, type SiteState, upgradeState } from './engine/state.js';
export { allocate, formatMoney, parseDecimal, roundMoney } from './kernel/money.js';
export { shiftFromAnchor } from './kernel/time.js';
