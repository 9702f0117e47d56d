/**
 * What a subscription actually paid for something in a billing period: the lines of its invoices for that
 * period that match, net of their discounts, times the share of each invoice that was settled. A credit
 * for unused service (a downgrade, a migration) is bounded by it, so no credit is ever given for service
 * that was billed but never paid, or given free.
 */
import type { Invoice, InvoiceLine } from '../../domain/invoice/types.js';
import { listRange } from '../../kernel/collection.js';
import { add, type Dec, div, isPositive, mul, roundMoney, sub } from '../../kernel/money.js';
import { type Instant, secondsBetween } from '../../kernel/time.js';
import { listed } from '../list-index.js';
import type { Transaction } from '../transaction.js';

/** The share of an invoice that was settled (paid, prepaid, credited, or paid by its parent): 0 to 1. */
function settledShare(invoice: Invoice): Dec {
  const { total, due } = invoice.totals;
  if (!isPositive(total)) return '0';
  return div(sub(total, due), total);
}

const billsPeriod = (invoice: Invoice, start: Instant, end: Instant): boolean => {
  const from = invoice.periodStartedAt ?? invoice.createdAt;
  return from >= start && from < end;
};

export interface PaidOptions {
  /** Only invoices created at or after this instant count (a later product change starts afresh). */
  readonly since?: Instant;
  /**
   * Count only what is still unused at this instant: each invoice's part times the share of its lines'
   * coverage still ahead (from the period's start, or from its creation for an invoice that bills the
   * rest of a period, such as a migration's).
   */
  readonly unusedAt?: Instant;
}

/**
 * What the subscription paid, in the period `[start, end)`, for the invoice lines `matches` picks:
 * each line's subtotal less its discount, times its invoice's settled share (and, with `unusedAt`, the
 * share of its coverage still ahead), rounded once.
 * @example paidInPeriod(tx, subscription.id, start, end, (line) => line.componentId === 3)
 */
export function paidInPeriod(
  tx: Transaction,
  subscriptionId: number,
  start: Instant,
  end: Instant,
  matches: (line: InvoiceLine) => boolean,
  options: PaidOptions = {},
): Dec {
  let paid: Dec = '0';
  for (const id of listed(tx.state.listIndexes, 'subscriptionInvoices', subscriptionId)) {
    const invoice = tx.get('invoices', id);
    if (invoice === undefined || invoice.consolidationLevel === 'parent') continue;
    if (invoice.status === 'draft' || invoice.status === 'voided' || !billsPeriod(invoice, start, end))
      continue;
    if (options.since !== undefined && invoice.createdAt < options.since) continue;
    let share = settledShare(invoice);
    if (options.unusedAt !== undefined)
      share = mul(share, unusedShare(invoice, start, end, options.unusedAt));
    if (!isPositive(share)) continue;
    let billed: Dec = '0';
    for (const line of listRange(invoice.lines))
      if (matches(line)) billed = add(billed, sub(line.subtotal, line.discount));
    if (isPositive(billed)) paid = add(paid, mul(billed, share));
  }
  return roundMoney(paid, tx.settings.currency);
}

/** The share of what an invoice billed for `[start, end)` that is still ahead at `at`: 0 to 1. */
function unusedShare(invoice: Invoice, start: Instant, end: Instant, at: Instant): Dec {
  const from = invoice.createdAt > start ? invoice.createdAt : start;
  const total = secondsBetween(from, end);
  if (total <= 0) return '0';
  const left = Math.min(total, Math.max(0, secondsBetween(at > from ? at : from, end)));
  return div(String(left), String(total));
}
