/**
 * An invoice's upkeep after issue: reopening one canceled with its subscription, sending it again, and
 * refreshing the customer information it shows from the customer's record.
 */
import type { DomainError } from '../../domain/errors.js';
import type { Invoice, InvoiceAddress, InvoiceParty } from '../../domain/invoice/types.js';
import { err, ok, type Result } from '../../kernel/result.js';
import { recordEmail } from '../email/emails.js';
import { childInvoices } from '../group/invoices.js';
import type { Transaction } from '../transaction.js';
import { customerAddress, partyOf } from './drafts.js';
import { refused } from './refusal.js';

/**
 * Reopens a canceled invoice: it is owed again (what it owes never left the books), and a consolidated
 * invoice's canceled segments reopen with it.
 */
export function reopenInvoice(tx: Transaction, invoice: Invoice): Result<Invoice, DomainError> {
  if (invoice.status !== 'canceled')
    return err(refused(`Only canceled invoices can be reopened; this one is ${invoice.status}.`));
  const reopened = reopen(tx, invoice);
  if (reopened.consolidationLevel === 'parent')
    for (const child of childInvoices(tx, reopened)) if (child.status === 'canceled') reopen(tx, child);
  return ok(reopened);
}

const reopen = (tx: Transaction, invoice: Invoice): Invoice =>
  tx.put('invoices', {
    ...invoice,
    status: 'open',
    history: [...invoice.history, { at: tx.now, kind: 'reopened', detail: 'reopened' }],
    updatedAt: tx.now,
  });

/** Who receives an invoice sent again. */
export interface InvoiceRecipients {
  /** The addresses it goes to (none given: the customer's email). */
  readonly to: readonly string[];
  readonly cc: readonly string[];
  readonly bcc: readonly string[];
}

/**
 * Sends an issued invoice again: one email in the outbox, to the first recipient with the others copied,
 * and an `email_sent` entry in the invoice's history. A draft has nothing to send yet.
 */
export function sendInvoice(
  tx: Transaction,
  invoice: Invoice,
  recipients: InvoiceRecipients,
): Result<Invoice, DomainError> {
  if (invoice.status === 'draft') return err(refused('A draft invoice cannot be sent; issue it first.'));
  const [first, ...others] = recipients.to.length === 0 ? [invoice.customer.email] : recipients.to;
  const to = first ?? invoice.customer.email;
  recordEmail(tx, {
    kind: 'invoice',
    to,
    customerId: invoice.customerId,
    subscriptionId: invoice.subscriptionId,
    subject: `Invoice ${invoice.number}`,
    cc: [...others, ...recipients.cc],
    bcc: recipients.bcc,
  });
  return ok(
    tx.put('invoices', {
      ...invoice,
      history: [...invoice.history, { at: tx.now, kind: 'email_sent', detail: to }],
      updatedAt: tx.now,
    }),
  );
}

/** What an invoice would show of its customer if refreshed from the customer's record now. */
export interface CustomerInformation {
  readonly customer: InvoiceParty;
  readonly payer: InvoiceParty;
  readonly billingAddress: InvoiceAddress;
  readonly shippingAddress: InvoiceAddress;
}

/**
 * The customer information an invoice would take from the records now: its customer and payer as they
 * are, and the customer's address as both billing and shipping address (as a new invoice takes them).
 */
export function currentCustomerInformation(
  tx: Transaction,
  invoice: Invoice,
): Result<CustomerInformation, DomainError> {
  const customer = tx.get('customers', invoice.customerId);
  if (customer === undefined) return err(refused("The invoice's customer no longer exists."));
  const payer = tx.get('customers', invoice.payer.id) ?? customer;
  const party = partyOf(customer);
  const address = customerAddress(customer);
  return ok({
    customer: party,
    payer: payer === customer ? party : partyOf(payer),
    billingAddress: address,
    shippingAddress: address,
  });
}

/**
 * Refreshes the customer information an open or pending invoice shows. Its amounts stay what was
 * issued: taxes are not computed again for a new address.
 */
export function updateCustomerInformation(tx: Transaction, invoice: Invoice): Result<Invoice, DomainError> {
  if (!['draft', 'pending', 'open'].includes(invoice.status))
    return err(refused(`Customer information of a ${invoice.status} invoice cannot be changed.`));
  const current = currentCustomerInformation(tx, invoice);
  if (!current.ok) return current;
  return ok(tx.put('invoices', { ...invoice, ...current.value, updatedAt: tx.now }));
}
