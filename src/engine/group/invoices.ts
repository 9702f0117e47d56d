/**
 * Consolidated invoices of subscription groups (an invoice's `consolidation_level`): a parent invoice owes
 * the sum of its pending child invoices, one per member renewal. Money moves on the parent only; when
 * the parent is paid, every child is paid by it, and voiding the parent voids its children.
 */

import type { Invoice, InvoicePayment } from '../../domain/invoice/types.js';
import type { Subscription } from '../../domain/subscription/types.js';
import { uidOf } from '../../kernel/ids.js';
import { add, isPositive, min, sub } from '../../kernel/money.js';
import { calendarDateOf } from '../../kernel/time.js';
import { listed } from '../list-index.js';
import type { Transaction } from '../transaction.js';

/**
 * The child invoices of a parent, in creation order. `known` names children this transaction created
 * (the stored list index only shows rows committed before it).
 */
export function childInvoices(tx: Transaction, parent: Invoice, known: readonly number[] = []): Invoice[] {
  const ids = [...new Set([...listed(tx.state.listIndexes, 'childInvoiceParents', parent.id), ...known])];
  const children: Invoice[] = [];
  for (const id of ids.sort((a, b) => a - b)) {
    const child = tx.get('invoices', id);
    if (child?.parentInvoiceId === parent.id) children.push(child);
  }
  return children;
}

/**
 * The payment profile that pays an invoice: a parent invoice is paid with its group's default profile,
 * else the primary's; any other invoice with its subscription's.
 */
export function payingProfileId(
  tx: Transaction,
  invoice: Invoice,
  subscription: Subscription,
): number | null {
  if (invoice.consolidationLevel !== 'parent' || invoice.subscriptionGroupId === null)
    return subscription.paymentProfileId;
  const group = tx.get('subscriptionGroups', invoice.subscriptionGroupId);
  return group?.paymentProfileId ?? subscription.paymentProfileId;
}

/** How the parent was paid, for the children's payment records: its last payment, or an external one. */
function paymentMethodOf(parent: Invoice): Pick<InvoicePayment, 'method' | 'lastFour' | 'cardType'> {
  const last = parent.payments.at(-1);
  return last === undefined
    ? { method: 'other', lastFour: null, cardType: null }
    : { method: last.method, lastFour: last.lastFour, cardType: last.cardType };
}

/**
 * A paid parent pays each of its children that is still owed: the child records a payment of what it
 * owes, becomes `paid`, and its member subscription earns the revenue. Children already paid or voided
 * are left alone, so settling twice changes nothing.
 */
export function settleChildren(tx: Transaction, parent: Invoice, known: readonly number[] = []): void {
  const paidDate = calendarDateOf(tx.now, tx.settings.timeZone);
  const method = paymentMethodOf(parent);
  for (const child of childInvoices(tx, parent, known)) {
    if (child.status === 'paid' || child.status === 'voided') continue;
    const due = child.totals.due;
    const payments = [...child.payments];
    if (isPositive(due)) {
      const transactionId = tx.next('transactions');
      payments.push({
        uid: uidOf('pmt', transactionId),
        transactionId,
        transactionTime: tx.now,
        memo: `Paid by consolidated invoice ${parent.number}`,
        originalAmount: due,
        appliedAmount: due,
        prepayment: false,
        ...method,
        gatewayTransactionId: null,
        receivedOn: paidDate,
      });
      const member = tx.get('subscriptions', child.subscriptionId);
      if (member !== undefined)
        tx.put('subscriptions', {
          ...member,
          totalRevenue: add(member.totalRevenue, due),
          balance: sub(member.balance, min(due, member.balance)),
          updatedAt: tx.now,
        });
    }
    tx.put('invoices', {
      ...child,
      status: 'paid',
      paidDate,
      payments,
      totals: { ...child.totals, paid: add(child.totals.paid, isPositive(due) ? due : '0'), due: '0' },
      history: [
        ...child.history,
        { at: tx.now, kind: 'status_changed', detail: `paid by consolidated invoice ${parent.number}` },
      ],
      updatedAt: tx.now,
    });
  }
}

/** Why a child invoice cannot be acted on by itself while its parent stands, or null when it can. */
export function childRefusal(tx: Transaction, invoice: Invoice, action: string): string | null {
  if (invoice.consolidationLevel !== 'child' || invoice.parentInvoiceId === null) return null;
  const parent = tx.get('invoices', invoice.parentInvoiceId);
  if (parent === undefined || parent.status === 'voided') return null;
  return `Invoice ${invoice.number} is a child of consolidated invoice ${parent.number} (${parent.uid}) and cannot be ${action} on its own; act on the consolidated invoice.`;
}
