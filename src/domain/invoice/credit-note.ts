/**
 * Credit notes and prepayments as the engine stores them. A credit note is an inverse invoice: the site
 * issues one for every refund and for every service credit an invoice takes, so the credits a customer
 * received can be listed and read (`/credit_notes.json`) as the official API shows them.
 */
import type { Dec } from '../../kernel/money.js';
import type { CalendarDate, Instant } from '../../kernel/time.js';

/** Where an invoice took some of a credit note's value. */
export interface CreditNoteApplication {
  /** The application's public id. */
  readonly uid: string;
  readonly invoiceId: number;
  readonly amount: Dec;
  readonly memo: string;
  readonly at: Instant;
}

/** Money a credit note paid back to the customer (a refund). */
export interface CreditNoteRefund {
  readonly transactionId: number;
  readonly paymentId: number;
  readonly memo: string;
  readonly amount: Dec;
  readonly external: boolean;
  readonly gatewayTransactionId: string | null;
}

/** Why the site issued a credit note. */
export type CreditNoteReason =
  /** A refund of an invoice's payment: its value went back to the customer (and, with `apply_credit`, also settles what the refund reopened). */
  | 'refund'
  /** Service credit the subscription held, applied to an invoice. */
  | 'service_credit';

/** A credit note: what the site credited a customer, where it went, and from which invoice. */
export interface CreditNote {
  /** Its row id, also its number. */
  readonly id: number;
  /** Its public id (`cn_…`). */
  readonly uid: string;
  readonly reason: CreditNoteReason;
  readonly customerId: number;
  readonly subscriptionId: number;
  /** The invoice it credits: the refunded one, or the one the service credit paid. */
  readonly originInvoiceId: number;
  readonly currency: string;
  readonly memo: string;
  /** Its value. */
  readonly total: Dec;
  readonly issueDate: CalendarDate;
  readonly applications: readonly CreditNoteApplication[];
  readonly refunds: readonly CreditNoteRefund[];
  /** True once an invoice no longer holds its application (voided): its value went back where it came from. */
  readonly reversed: boolean;
  readonly createdAt: Instant;
  readonly updatedAt: Instant;
}

/** A prepayment: money a subscription's customer paid ahead, drawn by its invoices, refundable while unused. */
export interface PrepaymentRecord {
  readonly id: number;
  readonly subscriptionId: number;
  readonly amount: Dec;
  /** What was returned of it to the customer. */
  readonly refunded: Dec;
  readonly memo: string;
  readonly details: string | null;
  /** How it was paid (`check`, `cash`, …). */
  readonly method: 'check' | 'cash' | 'money_order' | 'ach' | 'paypal_account' | 'credit_card' | 'other';
  /** True for money received outside the gateway (every prepayment the API records). */
  readonly external: boolean;
  readonly createdAt: Instant;
}
