/**
 * The site's books: every money movement is a transfer of a positive amount from one account to another
 * (TigerBeetle's rule: one debit, one credit, the same amount), so debits equal credits by construction
 * and every balance is the sum of its transfers.
 */
import type { Dec } from '../../kernel/money.js';
import type { Instant } from '../../kernel/time.js';

/**
 * The accounts. A balance is debits − credits: `receivable`, `cash`, `discounts`, `voids`,
 * `credits_granted` and `credit_notes` grow by debits; `sales`, `tax`, `prepayments` and `service_credits` by credits.
 *
 * - `receivable`, per invoice: what the customer owes on it (its amount due).
 * - `cash`, per subscription: money received from the customer (gateway or recorded) and not returned.
 * - `sales`, `discounts`, `tax`: what invoices billed, the discounts they gave, the tax they charged.
 * - `voids`: what voided invoices no longer ask for.
 * - `prepayments`, per subscription: money held for the customer (its prepayment balance).
 * - `service_credits`, per subscription: credit owed to the customer in kind (its service credit balance).
 * - `credits_granted`: the other side of every service credit the site grants (its cost).
 * - `credit_notes`: what credit notes applied to invoices forgave (a refund with `apply_credit`: its cost).
 */
export type LedgerAccountName =
  | 'receivable'
  | 'cash'
  | 'sales'
  | 'discounts'
  | 'tax'
  | 'voids'
  | 'prepayments'
  | 'service_credits'
  | 'credits_granted'
  | 'credit_notes';

/** Where a granted service credit comes from. */
export type ServiceCreditSource =
  /** `POST /subscriptions/{id}/service_credits.json`. */
  | 'manual'
  /** An allocation downgrade credited at once. */
  | 'downgrade'
  /** The unused, paid part of a period when a subscription changes product. */
  | 'migration'
  /** An advance invoice billed more than its renewal turned out to owe. */
  | 'advance_adjustment'
  /** A group member's period shortened to align with the primary's. */
  | 'group_alignment';

export type TransferKind =
  /** Issuing an invoice: receivable ← sales. */
  | 'invoice_sales'
  /** Issuing an invoice: its discounts, discounts ← receivable. */
  | 'invoice_discount'
  /** Issuing an invoice: receivable ← tax. */
  | 'invoice_tax'
  /** Voiding an invoice: what it still asked for, voids ← receivable. */
  | 'invoice_void'
  /** Money received on an invoice: cash ← receivable. */
  | 'payment'
  /** Money received on a consolidated invoice, held for its children: cash ← receivable of the parent. */
  | 'group_payment'
  /** A consolidated invoice pays a child: receivable of the parent ← receivable of the child. */
  | 'group_settlement'
  /** Prepaid money applied to an invoice: prepayments ← receivable (reversed when it goes back). */
  | 'prepayment_applied'
  /** Service credit applied to an invoice: service_credits ← receivable (reversed when it goes back). */
  | 'service_credit_applied'
  /** Money received as a prepayment: cash ← prepayments. */
  | 'prepayment_received'
  /** Money paid on an invoice that was then voided, kept for the customer: receivable ← prepayments. */
  | 'void_payment_moved'
  /** A service credit the site grants: credits_granted ← service_credits. */
  | 'service_credit_granted'
  /** Money returned on an invoice's payment (through the gateway or outside it): receivable ← cash. */
  | 'refund'
  /** A credit note applied to an invoice (a refund with `apply_credit`): credit_notes ← receivable. */
  | 'credit_note_applied'
  /** Unused prepaid money returned to the customer: prepayments ← cash. */
  | 'prepayment_refunded'
  /** Service credit taken back from a subscription: service_credits ← credits_granted. */
  | 'service_credit_deducted';

/** An account of the books: a name, and the invoice or subscription it belongs to where it has one. */
export interface LedgerAccount {
  readonly name: LedgerAccountName;
  /** The invoice id of a `receivable`, the subscription id of `cash`, `prepayments`, `service_credits`. */
  readonly of: number | null;
}

/** One balanced movement: `amount` leaves `credit` and enters `debit`. */
export interface LedgerTransfer {
  readonly id: number;
  readonly at: Instant;
  readonly kind: TransferKind;
  readonly debit: LedgerAccount;
  readonly credit: LedgerAccount;
  /** Positive, canonical decimal in the site currency. */
  readonly amount: Dec;
  /** The subscription the movement belongs to (whose revenue a payment is). */
  readonly subscriptionId: number | null;
  readonly invoiceId: number | null;
  /** Set on `service_credit_granted`. */
  readonly source: ServiceCreditSource | null;
}

/** A transfer before the books number it. */
export type TransferDraft = Omit<LedgerTransfer, 'id' | 'at'>;
