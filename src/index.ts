/**
 * billing-core: a pure recurring-billing engine. The public surface: the site, the REST handler, time,
 * and the domain functions a host calls directly.
 */
export { handle } from './api/handle.js';
export type { ApiRequest, ApiResponse, HandleContext, HandleResult } from './api/types.js';
export type { Product, ProductFamily, ProductPricePoint } from './domain/catalog/types.js';
export type { Customer } from './domain/customer/types.js';
export type { SiteEvent } from './domain/event-log/types.js';
export type { Invoice, InvoiceLine, InvoiceStatus } from './domain/invoice/types.js';
export { testGateway } from './domain/payment/test-gateway.js';
export type {
  PaymentAttempt,
  PaymentGateway,
  PaymentOutcome,
  PaymentProfile,
} from './domain/payment/types.js';
export type { SiteConfig, SiteMetric, SiteSettings, SiteTaxRate } from './domain/site/config.js';
export { periodOf } from './domain/subscription/schedule.js';
export type { Subscription, SubscriptionState } from './domain/subscription/types.js';
export { advance } from './engine/advance.js';
export { createSite, type SiteState } from './engine/state.js';
export { allocate, formatMoney, parseDecimal, roundMoney } from './kernel/money.js';
export { shiftFromAnchor } from './kernel/time.js';
