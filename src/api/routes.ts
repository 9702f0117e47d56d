/** The route table: every operation the REST layer serves. */

import { allocationRoutes } from './allocation/allocations.js';
import { subscriptionComponentRoutes } from './allocation/subscription-components.js';
import { subscriptionPricePointRoutes } from './allocation/subscription-price-points.js';
import { subscriptionsComponentsRoutes } from './allocation/subscriptions-components.js';
import { productFamilyRoutes } from './catalog/product-families.js';
import { productPricePointRoutes } from './catalog/product-price-points.js';
import { productPricePointListRoutes } from './catalog/product-price-points-list.js';
import { productRoutes } from './catalog/products.js';
import { componentRoutes } from './component/components.js';
import { componentListRoutes } from './component/components-list.js';
import { componentPricePointRoutes } from './component/price-points.js';
import { componentPricePointListRoutes } from './component/price-points-list.js';
import { segmentRoutes } from './component/segments.js';
import { segmentBulkRoutes } from './component/segments-bulk.js';
import { couponLookupRoutes } from './coupon/coupon-lookup.js';
import { couponSubcodeRoutes } from './coupon/coupon-subcodes.js';
import { couponRoutes } from './coupon/coupons.js';
import { customFieldRoutes } from './custom-field/routes.js';
import { customerRoutes } from './customer/customers.js';
import { eventRoutes } from './event-log/events.js';
import { apiExportRoutes } from './export/api-exports.js';
import { featureTemplateRoutes } from './feature/features.js';
import { catalogFeatureRoutes } from './feature/features-catalog.js';
import { featureTemplateListRoutes } from './feature/features-list.js';
import { groupLifecycleRoutes } from './group/group-lifecycle.js';
import { groupTargetRoutes } from './group/group-target.js';
import { subscriptionGroupRoutes } from './group/subscription-groups.js';
import { accountBalanceRoutes } from './invoice/account-balances.js';
import { advanceInvoiceRoutes } from './invoice/advance-invoices.js';
import { creditNoteRoutes } from './invoice/credit-notes.js';
import { groupAccountRoutes } from './invoice/group-account.js';
import { invoiceActionRoutes } from './invoice/invoice-actions.js';
import { invoiceEventRoutes } from './invoice/invoice-events.js';
import { invoiceMoneyRoutes } from './invoice/invoice-money.js';
import { invoiceUpkeepRoutes } from './invoice/invoice-upkeep.js';
import { invoiceRoutes } from './invoice/invoices.js';
import { adHocInvoiceRoutes } from './invoice/invoices-adhoc.js';
import { proformaRoutes } from './invoice/proforma.js';
import { offerRoutes } from './offer/offers.js';
import { oneTimeTokenRoutes } from './payment/one-time-tokens.js';
import { paymentProfileChangeRoutes } from './payment/payment-profile-changes.js';
import { paymentProfileRoutes } from './payment/payment-profiles.js';
import { paymentUpdateRoutes } from './payment/payment-update.js';
import { portalRoutes } from './portal/portal.js';
import { reasonCodeRoutes } from './reason-code/reason-codes.js';
import type { Route } from './route.js';
import { siteRoutes } from './site/site.js';
import { migrationRoutes, renewalPreviewRoute } from './subscription/migrations.js';
import { prepaidConfigurationRoutes } from './subscription/prepaid-configuration.js';
import { subscriptionActionRoutes } from './subscription/subscription-actions.js';
import { subscriptionCouponRoutes } from './subscription/subscription-coupons.js';
import { subscriptionNoteRoutes } from './subscription/subscription-notes.js';
import { subscriptionPreviewRoute } from './subscription/subscription-preview.js';
import { subscriptionStatusRoutes } from './subscription/subscription-status.js';
import { subscriptionUpdateRoutes } from './subscription/subscription-update.js';
import { subscriptionRoutes } from './subscription/subscriptions.js';
import { eventIngestionRoutes } from './usage/event-ingestion.js';
import { usageRoutes } from './usage/usages.js';

export const routes = [
  ...productFamilyRoutes,
  ...productRoutes,
  ...productPricePointRoutes,
  ...componentRoutes,
  ...componentListRoutes,
  ...componentPricePointRoutes,
  ...segmentRoutes,
  ...segmentBulkRoutes,
  ...customerRoutes,
  ...paymentProfileRoutes,
  ...paymentProfileChangeRoutes,
  ...portalRoutes,
  ...paymentUpdateRoutes,
  ...oneTimeTokenRoutes,
  ...subscriptionRoutes,
  ...subscriptionUpdateRoutes,
  ...subscriptionNoteRoutes,
  ...customFieldRoutes,
  ...prepaidConfigurationRoutes,
  ...subscriptionCouponRoutes,
  subscriptionPreviewRoute,
  ...subscriptionActionRoutes,
  ...subscriptionComponentRoutes,
  ...allocationRoutes,
  ...usageRoutes,
  ...invoiceRoutes,
  ...adHocInvoiceRoutes,
  ...invoiceActionRoutes,
  ...invoiceMoneyRoutes,
  ...invoiceEventRoutes,
  ...invoiceUpkeepRoutes,
  ...creditNoteRoutes,
  ...accountBalanceRoutes,
  ...groupAccountRoutes,
  ...advanceInvoiceRoutes,
  ...subscriptionStatusRoutes,
  ...migrationRoutes,
  renewalPreviewRoute,
  ...eventRoutes,
  ...eventIngestionRoutes,
  ...couponRoutes,
  ...couponLookupRoutes,
  ...couponSubcodeRoutes,
  ...featureTemplateRoutes,
  ...featureTemplateListRoutes,
  ...catalogFeatureRoutes,
  ...proformaRoutes,
  ...apiExportRoutes,
  ...subscriptionGroupRoutes,
  ...groupTargetRoutes,
  ...groupLifecycleRoutes,
  ...reasonCodeRoutes,
  ...siteRoutes,
  ...offerRoutes,
  ...componentPricePointListRoutes,
  ...productPricePointListRoutes,
  ...subscriptionsComponentsRoutes,
  ...subscriptionPricePointRoutes,
] as const satisfies readonly Route[];
