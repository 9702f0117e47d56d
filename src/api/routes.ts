/** The route table: every operation the REST layer serves. */

import { advanceInvoiceRoutes } from './resources/advance-invoices.js';
import { allocationRoutes } from './resources/allocations.js';
import { apiExportRoutes } from './resources/api-exports.js';
import { componentPricePointRoutes } from './resources/component-price-points.js';
import { componentRoutes } from './resources/components.js';
import { componentListRoutes } from './resources/components-list.js';
import { couponLookupRoutes } from './resources/coupon-lookup.js';
import { couponSubcodeRoutes } from './resources/coupon-subcodes.js';
import { couponRoutes } from './resources/coupons.js';
import { customerRoutes } from './resources/customers.js';
import { eventIngestionRoutes } from './resources/event-ingestion.js';
import { eventRoutes } from './resources/events.js';
import { featureTemplateRoutes } from './resources/features.js';
import { catalogFeatureRoutes } from './resources/features-catalog.js';
import { featureTemplateListRoutes } from './resources/features-list.js';
import { groupTargetRoutes } from './resources/group-target.js';
import { invoiceActionRoutes } from './resources/invoice-actions.js';
import { invoiceRoutes } from './resources/invoices.js';
import { adHocInvoiceRoutes } from './resources/invoices-adhoc.js';
import { migrationRoutes, renewalPreviewRoute } from './resources/migrations.js';
import { oneTimeTokenRoutes } from './resources/one-time-tokens.js';
import { paymentProfileRoutes } from './resources/payment-profiles.js';
import { paymentUpdateRoutes } from './resources/payment-update.js';
import { portalRoutes } from './resources/portal.js';
import { productFamilyRoutes } from './resources/product-families.js';
import { productPricePointRoutes } from './resources/product-price-points.js';
import { productRoutes } from './resources/products.js';
import { proformaRoutes } from './resources/proforma.js';
import { segmentRoutes } from './resources/segments.js';
import { segmentBulkRoutes } from './resources/segments-bulk.js';
import { subscriptionComponentRoutes } from './resources/subscription-components.js';
import { subscriptionGroupRoutes } from './resources/subscription-groups.js';
import { subscriptionStatusRoutes } from './resources/subscription-status.js';
import { subscriptionRoutes } from './resources/subscriptions.js';
import { usageRoutes } from './resources/usages.js';
import type { Route } from './route.js';

export const routes: readonly Route[] = [
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
  ...portalRoutes,
  ...paymentUpdateRoutes,
  ...oneTimeTokenRoutes,
  ...subscriptionRoutes,
  ...subscriptionComponentRoutes,
  ...allocationRoutes,
  ...usageRoutes,
  ...invoiceRoutes,
  ...adHocInvoiceRoutes,
  ...invoiceActionRoutes,
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
];
