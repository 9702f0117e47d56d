/** The tables of a site's state: which rows each holds. */

import type { Allocation, SubscriptionComponent, Usage } from '../domain/allocation/types.js';
import type { Component, ComponentPricePoint, Segment } from '../domain/catalog/component.js';
import type { Product, ProductFamily, ProductPricePoint } from '../domain/catalog/types.js';
import type { Coupon, CouponSubcode } from '../domain/coupon/types.js';
import type { Metadatum, Metafield } from '../domain/custom-field/types.js';
import type { Customer } from '../domain/customer/types.js';
import type { Email, PaymentUpdateRequestLog } from '../domain/email/types.js';
import type { EventUsage } from '../domain/event-log/usage.js';
import type { ExportBatch } from '../domain/export/batch.js';
import type { CatalogFeature, FeatureTemplate } from '../domain/feature/types.js';
import type { GroupMembership, SubscriptionGroup } from '../domain/group/types.js';
import type { CreditNote, PrepaymentRecord } from '../domain/invoice/credit-note.js';
import type { ProformaExport, ProformaInvoice } from '../domain/invoice/proforma.js';
import type { Invoice } from '../domain/invoice/types.js';
import type { Offer } from '../domain/offer/types.js';
import type { OneTimeToken } from '../domain/one-time-token/types.js';
import type { PaymentProfile } from '../domain/payment/types.js';
import type { CustomerPortal } from '../domain/portal/types.js';
import type { ReasonCode } from '../domain/reason-code/types.js';
import type { SubscriptionNote } from '../domain/subscription/note.js';
import type { Subscription } from '../domain/subscription/types.js';
import type { Table } from '../kernel/collection.js';

/** The rows of each table. */
export interface TableRows {
  readonly productFamilies: ProductFamily;
  readonly products: Product;
  readonly productPricePoints: ProductPricePoint;
  readonly components: Component;
  readonly componentPricePoints: ComponentPricePoint;
  readonly segments: Segment;
  readonly customers: Customer;
  readonly paymentProfiles: PaymentProfile;
  /** The outbox: every email the engine recorded, in order. */
  readonly emails: Email;
  /** Billing portals by customer (see `portalCustomers`). */
  readonly portals: CustomerPortal;
  /** Recent payment update emails by subscription (see `paymentUpdateRequestSubscriptions`). */
  readonly paymentUpdateRequests: PaymentUpdateRequestLog;
  readonly oneTimeTokens: OneTimeToken;
  readonly subscriptions: Subscription;
  /** Notes on subscriptions (see `subscriptionNotes` in the list indexes). */
  readonly subscriptionNotes: SubscriptionNote;
  readonly invoices: Invoice;
  readonly proformaInvoices: ProformaInvoice;
  /** Credit notes: one per refund and per service credit an invoice took. */
  readonly creditNotes: CreditNote;
  /** Prepayments received, by id (the balance itself is the subscription's `prepaymentBalance`). */
  readonly prepayments: PrepaymentRecord;
  /** Proforma invoice export batches (`/api_exports/proforma_invoices`). */
  readonly proformaExports: ProformaExport;
  readonly coupons: Coupon;
  readonly couponSubcodes: CouponSubcode;
  readonly featureTemplates: FeatureTemplate;
  readonly catalogFeatures: CatalogFeature;
  /** What each subscription holds of each component (see `subscriptionComponentKeys`). */
  readonly subscriptionComponents: SubscriptionComponent;
  readonly allocations: Allocation;
  readonly usages: Usage;
  /** Ingested event-based usage by subscription and component (see `eventUsageKeys`). */
  readonly eventUsage: EventUsage;
  readonly subscriptionGroups: SubscriptionGroup;
  /** One row per grouped subscription (see `groupMembershipSubscriptions`). */
  readonly groupMemberships: GroupMembership;
  /** The site's churn reason codes. */
  readonly reasonCodes: ReasonCode;
  /** Custom fields of subscriptions and customers (see `metafieldNames`). */
  readonly metafields: Metafield;
  /** Custom field values, one row per resource and field (see `resourceMetadata`). */
  readonly metadata: Metadatum;
  /** The site's offers: packages of a product, components and coupons (see `offerHandles`). */
  readonly offers: Offer;
  /** Invoice export batches (`/api_exports/invoices`). */
  readonly invoiceExports: ExportBatch;
  /** Subscription export batches (`/api_exports/subscriptions`). */
  readonly subscriptionExports: ExportBatch;
}

export type TableName = keyof TableRows;

export type Tables = { readonly [K in TableName]: Table<TableRows[K]> };
