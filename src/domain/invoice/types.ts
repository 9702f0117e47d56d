/** The invoice record as the engine stores it; the API layer presents it. */
import type { ChunkedList } from '../../kernel/collection.js';
import type { Dec } from '../../kernel/money.js';
import type { CalendarDate, Instant } from '../../kernel/time.js';
import type { CollectionMethod } from '../subscription/types.js';

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

export interface InvoiceLine {
  readonly uid: string;
  readonly title: string;
  readonly description: string;
  readonly quantity: Dec;
  readonly unitPrice: Dec;
  readonly subtotal: Dec;
  readonly discount: Dec;
  readonly tax: Dec;
  readonly total: Dec;
  readonly taxable: boolean;
  readonly tieredUnitPrice: boolean;
  readonly periodRangeStart: CalendarDate | null;
  readonly periodRangeEnd: CalendarDate | null;
  readonly productId: number | null;
  readonly productVersion: number | null;
  readonly productPricePointId: number | null;
  readonly componentId: number | null;
  readonly pricePointId: number | null;
  readonly customItem: boolean;
  readonly kind: string;
  readonly taxCode: string | null;
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
  readonly kind: 'service_credit' | 'prepayment';
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
    | 'payment_recorded';
  readonly detail: string;
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

export interface Invoice {
  readonly id: number;
  readonly uid: string;
  readonly number: string;
  readonly sequenceNumber: number;
  readonly customerId: number;
  readonly subscriptionId: number;
  readonly status: InvoiceStatus;
  readonly role: InvoiceRole;
  readonly collectionMethod: CollectionMethod;
  readonly currency: string;
  readonly issueDate: CalendarDate;
  readonly dueDate: CalendarDate;
  readonly paidDate: CalendarDate | null;
  readonly netTerms: number;
  readonly memo: string;
  readonly paymentInstructions: string;
  readonly productName: string;
  readonly productFamilyName: string;
  readonly consolidationLevel: 'none' | 'child' | 'parent';
  readonly parentInvoiceId: number | null;
  readonly subscriptionGroupId: number | null;
  readonly customer: InvoiceParty;
  readonly payer: InvoiceParty;
  readonly sellerAddress: InvoiceAddress | null;
  readonly billingAddress: InvoiceAddress | null;
  readonly shippingAddress: InvoiceAddress | null;
  readonly lines: ChunkedList<InvoiceLine>;
  readonly discounts: readonly InvoiceDiscount[];
  readonly taxes: readonly InvoiceTax[];
  readonly payments: readonly InvoicePayment[];
  readonly credits: readonly InvoiceCredit[];
  readonly history: readonly InvoiceHistoryEntry[];
  readonly totals: InvoiceTotals;
  readonly periodStartedAt: Instant | null;
  readonly periodEndsAt: Instant | null;
  /** An advance invoice bills the period starting here before it begins. */
  readonly advance: boolean;
  readonly voidReason: string | null;
  readonly transactionTime: Instant;
  readonly createdAt: Instant;
  readonly updatedAt: Instant;
}
