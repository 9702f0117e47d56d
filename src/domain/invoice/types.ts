/** The invoice record as the engine stores it; the API layer presents it. */
import type { ChunkedList } from '../../kernel/collection.js';
import type { Dec } from '../../kernel/money.js';
import type { CalendarDate, Instant } from '../../kernel/time.js';
import type { CollectionMethod } from '../subscription/types.js';

/**
 * An invoice's status: `draft` and `pending` before issue, `open` while owed, then `paid`, `voided` or
 * `canceled` (with its subscription). `processing` is in the official API's list; the engine never sets it.
 */
export type InvoiceStatus = 'draft' | 'pending' | 'open' | 'paid' | 'voided' | 'canceled' | 'processing';
export type InvoiceRole =
  | 'unset'
  | 'signup'
  | 'renewal'
  | 'usage'
  | 'reactivation'
  | 'proration'
  | 'migration'
  | 'adhoc';

export interface InvoiceAddress {
  readonly firstName: string | null;
  readonly lastName: string | null;
  readonly phone: string | null;
  readonly street: string | null;
  readonly line2: string | null;
  readonly city: string | null;
  readonly state: string | null;
  readonly zip: string | null;
  readonly country: string | null;
}

export interface InvoiceParty {
  readonly id: number;
  readonly firstName: string;
  readonly lastName: string;
  readonly organization: string | null;
  readonly email: string;
  readonly vatNumber: string | null;
  readonly reference: string | null;
}

/** One line of an invoice: what it charges for and the amounts, as exact decimals. */
export interface InvoiceLine {
  /** The line's public id (`li_…`). */
  readonly uid: string;
  /** The line's title. */
  readonly title: string;
  /** The line's description (for a period charge, the period it covers). */
  readonly description: string;
  /** The quantity charged (for a prorated line, the changed quantity × the share of the period). */
  readonly quantity: Dec;
  /** The price of one unit (a tiered line's blended price, to 8 places). */
  readonly unitPrice: Dec;
  /** Quantity × unit price, rounded to the currency. */
  readonly subtotal: Dec;
  /** What the invoice's discounts take off this line. */
  readonly discount: Dec;
  /** The tax charged on this line. */
  readonly tax: Dec;
  /** Subtotal − discount + tax. */
  readonly total: Dec;
  /** Whether taxes apply to the line. */
  readonly taxable: boolean;
  /** Whether `unitPrice` is a blend of several brackets' prices. */
  readonly tieredUnitPrice: boolean;
  /** The first day of the period the line covers, or null. */
  readonly periodRangeStart: CalendarDate | null;
  /** The last day of the period the line covers, or null. */
  readonly periodRangeEnd: CalendarDate | null;
  /** The product charged, or null. */
  readonly productId: number | null;
  /** The version of the product charged, or null. */
  readonly productVersion: number | null;
  /** The product price point charged, or null. */
  readonly productPricePointId: number | null;
  /** The component charged, or null. */
  readonly componentId: number | null;
  /** The component price point charged, or null. */
  readonly pricePointId: number | null;
  /** Whether the line is an ad hoc custom item. */
  readonly customItem: boolean;
  /**
   * What the line charges for, as the API's line `kind`: `baseline` (a product's period), `initial`, `trial`,
   * a component's kind, or a custom item.
   */
  readonly kind: string;
  /** The tax code of what is charged, or null. */
  readonly taxCode: string | null;
  /** The line's transaction id. */
  readonly transactionId: number;
  /** The amount the line was priced at before rounding (tiered components), when not quantity × unit price. */
  readonly pricedAmount: Dec | null;
}

/**
 * One line's part of an invoice discount, kept as the API presents it (`line_item_breakouts`): amounts
 * with the currency's decimals. An invoice of 100,000 lines has that many per coupon and per tax; built
 * in this shape and frozen, they are the response's own objects, not copied into it on every read.
 */
export interface InvoiceDiscountBreakout {
  readonly uid: string;
  readonly eligible_amount: Dec;
  readonly discount_amount: Dec;
}

export interface InvoiceDiscount {
  readonly uid: string;
  readonly title: string;
  readonly description: string | null;
  readonly code: string;
  readonly subcode: string | null;
  readonly sourceType: 'Coupon' | 'Ad Hoc Coupon';
  readonly sourceId: number | null;
  readonly discountType: 'percentage' | 'flat_amount';
  readonly percentage: Dec | null;
  readonly amount: Dec | null;
  readonly compoundingStrategy: 'compound' | 'full-price';
  /** The lines the coupon applies to (its restrictions), or null for every line. */
  readonly eligibleLineUids: readonly string[] | null;
  readonly eligibleAmount: Dec;
  readonly discountAmount: Dec;
  readonly transactionId: number;
  readonly breakouts: readonly InvoiceDiscountBreakout[];
}

/** One line's part of an invoice tax, kept as the API presents it (see `InvoiceDiscountBreakout`). */
export interface InvoiceTaxBreakout {
  readonly uid: string;
  readonly taxable_amount: Dec;
  readonly tax_amount: Dec;
  readonly tax_exempt_amount: Dec;
}

export interface InvoiceTax {
  readonly uid: string;
  readonly title: string;
  readonly sourceId: number | null;
  readonly percentage: Dec;
  readonly taxableAmount: Dec;
  readonly taxAmount: Dec;
  readonly transactionId: number;
  readonly breakouts: readonly InvoiceTaxBreakout[];
}

export interface InvoicePayment {
  readonly uid: string;
  readonly transactionId: number;
  readonly transactionTime: Instant;
  readonly memo: string;
  readonly originalAmount: Dec;
  readonly appliedAmount: Dec;
  readonly prepayment: boolean;
  readonly method: 'credit_card' | 'bank_account' | 'check' | 'cash' | 'money_order' | 'ach' | 'other';
  readonly lastFour: string | null;
  readonly cardType: string | null;
  readonly gatewayTransactionId: string | null;
  readonly receivedOn: CalendarDate;
}

export interface InvoiceCredit {
  readonly uid: string;
  readonly creditNoteNumber: string;
  readonly transactionTime: Instant;
  readonly memo: string;
  readonly originalAmount: Dec;
  readonly appliedAmount: Dec;
  /**
   * Where the credit comes from: the subscription's service credit or prepayments, or a credit note the
   * site issued on a refund with `apply_credit` (which settles what the refund reopened).
   */
  readonly kind: 'service_credit' | 'prepayment' | 'credit_note';
}

/** Money returned on one of an invoice's payments, through the gateway or recorded as made outside it. */
export interface InvoiceRefund {
  /** The refund's own transaction id. */
  readonly transactionId: number;
  /** The transaction id of the payment it returns money of. */
  readonly paymentId: number;
  readonly memo: string;
  /** The amount returned. */
  readonly amount: Dec;
  readonly transactionTime: Instant;
  /** True when the money went back outside the gateway and the refund only records it. */
  readonly external: boolean;
  /** The processor's id of a refund made through the gateway, or null. */
  readonly gatewayTransactionId: string | null;
  /** The credit note the refund issued. */
  readonly creditNoteId: number;
}

/** One entry of the invoice's history (failed payments, status changes, emails). */
export interface InvoiceHistoryEntry {
  readonly at: Instant;
  readonly kind:
    | 'issued'
    | 'payment_failed'
    | 'email_sent'
    | 'voided'
    | 'status_changed'
    | 'payment_recorded'
    | 'refunded'
    | 'reopened'
    | 'payment_removed'
    | 'credit_removed';
  readonly detail: string;
  /** Of a `payment_failed` entry for a payment the gateway was asked for: what was asked. */
  readonly attempt?: FailedPaymentAttempt;
  /** Of a `payment_removed` entry: the payment taken off the invoice (a prepayment going back). */
  readonly payment?: InvoicePayment;
  /** Of a `credit_removed` entry: the credit taken off the invoice (a service credit going back). */
  readonly credit?: InvoiceCredit;
}

/** A payment of an invoice the gateway declined. */
export interface FailedPaymentAttempt {
  /** The transaction id the attempt used. */
  readonly transactionId: number;
  /** The amount asked for. */
  readonly amount: Dec;
  /** How it was to be paid. */
  readonly method: 'credit_card' | 'ach';
}

export interface InvoiceTotals {
  readonly subtotal: Dec;
  readonly discount: Dec;
  readonly tax: Dec;
  readonly total: Dec;
  readonly credit: Dec;
  readonly debit: Dec;
  readonly refund: Dec;
  readonly paid: Dec;
  readonly due: Dec;
}

/**
 * An invoice as the engine stores it: amounts are canonical decimal strings, and `GET /invoices/{uid}.json`
 * presents it.
 */
export interface Invoice {
  /** The invoice's row id. */
  readonly id: number;
  /** Its public id (`inv_…`), the one the REST API takes. */
  readonly uid: string;
  /** Its number as shown, the site's invoice sequence as text. */
  readonly number: string;
  /** Its place in the site's invoice sequence. */
  readonly sequenceNumber: number;
  /** The customer billed. */
  readonly customerId: number;
  /** The subscription it bills (a consolidated parent: the group's primary). */
  readonly subscriptionId: number;
  /** Where it stands: draft, pending, open, paid, voided, canceled or processing. */
  readonly status: InvoiceStatus;
  /** Why it was issued: signup, renewal, usage, reactivation, proration, migration, ad hoc, or unset. */
  readonly role: InvoiceRole;
  /** `automatic` (charged to the payment profile) or `remittance` (the customer pays it). */
  readonly collectionMethod: CollectionMethod;
  /** The ISO 4217 currency code of its amounts. */
  readonly currency: string;
  /** The day it was issued, in the site's time zone. */
  readonly issueDate: CalendarDate;
  /** The day payment is due: the issue date plus `netTerms` days. */
  readonly dueDate: CalendarDate;
  /** The day it was paid in full, or null. */
  readonly paidDate: CalendarDate | null;
  /** Days between issue and due date. */
  readonly netTerms: number;
  /** The memo printed on it. */
  readonly memo: string;
  /** The payment instructions printed on it. */
  readonly paymentInstructions: string;
  /** The subscription's product, as named when the invoice was made. */
  readonly productName: string;
  /** That product's family, as named when the invoice was made. */
  readonly productFamilyName: string;
  /**
   * `none`, or in a subscription group's consolidated billing a member's `child` or the group's `parent`
   * invoice.
   */
  readonly consolidationLevel: 'none' | 'child' | 'parent';
  /** A child invoice's consolidated parent, or null. */
  readonly parentInvoiceId: number | null;
  /** The subscription group of a consolidated invoice, or null. */
  readonly subscriptionGroupId: number | null;
  /** The customer, as billed. */
  readonly customer: InvoiceParty;
  /** Who pays: the customer, or a group's responsible payer. */
  readonly payer: InvoiceParty;
  /** The seller's address, or null for the site's default. */
  readonly sellerAddress: InvoiceAddress | null;
  /** The billing address, or null. */
  readonly billingAddress: InvoiceAddress | null;
  /** The shipping address (taxes follow it first), or null. */
  readonly shippingAddress: InvoiceAddress | null;
  /** The invoice's lines, in order, in chunks (an invoice may have a million). */
  readonly lines: ChunkedList<InvoiceLine>;
  /** Its discounts (coupons), in the order applied. */
  readonly discounts: readonly InvoiceDiscount[];
  /** Its taxes. */
  readonly taxes: readonly InvoiceTax[];
  /** The payments received on it, in order. */
  readonly payments: readonly InvoicePayment[];
  /** The service credits, prepayments and credit notes applied to it, in order. */
  readonly credits: readonly InvoiceCredit[];
  /** Money returned on its payments, in order (absent on rows made before refunds existed: none). */
  readonly refunds?: readonly InvoiceRefund[];
  /** What happened to it (issue, failed payments, emails, status changes), in order. */
  readonly history: readonly InvoiceHistoryEntry[];
  /** Its totals: subtotal, discount, tax, total, credits, payments and what is still due. */
  readonly totals: InvoiceTotals;
  /** The start of the billing period it bills, or null. */
  readonly periodStartedAt: Instant | null;
  /** The end of the billing period it bills, or null. */
  readonly periodEndsAt: Instant | null;
  /** An advance invoice bills the period starting here before it begins. */
  readonly advance: boolean;
  /** Why it was voided, or null. */
  readonly voidReason: string | null;
  /** The instant it was made. */
  readonly transactionTime: Instant;
  /** The instant it was created. */
  readonly createdAt: Instant;
  /** The instant it last changed. */
  readonly updatedAt: Instant;
}
