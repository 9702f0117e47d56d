/**
 * Advance invoices (SPEC 3 and 4.8): the next period billed before it begins, at most one per subscription
 * per period. `force` voids the existing one and issues a new one; voiding returns the prepayments and
 * credits applied to it, and the period may then be invoiced in advance again. The renewal that starts
 * the period bills nothing more: it collects the advance invoice if it is still open.
 */

import type { DomainError } from '../../domain/errors.js';
import type { Invoice } from '../../domain/invoice/types.js';
import type { PaymentGateway } from '../../domain/payment/types.js';
import type { Subscription } from '../../domain/subscription/types.js';
import { err, ok, type Result } from '../../kernel/result.js';
import type { Transaction } from '../transaction.js';
import { collectInvoice } from './billing.js';
import { createInvoice } from './invoice-build.js';
import { applyBalances, settleIfPaid, voidInvoice } from './invoice-issue.js';
import { productCharge } from './lifecycle.js';
import { nextPeriodOf, renewalCouponSpecs } from './proforma.js';

const refused = (message: string): DomainError => ({ code: 'advance_invoice', status: 422, message });

/** The subscription's advance invoice for its next period, unless voided. */
export function pendingAdvanceInvoice(
  tx: Transaction,
  subscription: Subscription,
  periodStart: string,
): Invoice | undefined {
  const invoice =
    subscription.advanceInvoiceId === null ? undefined : tx.get('invoices', subscription.advanceInvoiceId);
  return invoice !== undefined && invoice.status !== 'voided' && invoice.periodStartedAt === periodStart
    ? invoice
    : undefined;
}

/** Issues the advance invoice of the next period. */
export function issueAdvanceInvoice(
  tx: Transaction,
  subscription: Subscription,
  force: boolean,
  gateway: PaymentGateway,
): Result<Invoice, DomainError> {
  if (subscription.state !== 'active')
    return err(
      refused(`An advance invoice needs an active subscription; this one is ${subscription.state}.`),
    );
  const period = nextPeriodOf(tx, subscription);
  if (period === undefined) return err(refused('The subscription has no price point.'));
  const existing = pendingAdvanceInvoice(tx, subscription, period.start);
  if (existing !== undefined) {
    if (!force)
      return err(
        refused(
          'An advance invoice already exists for the next billing period. Use force to void it and issue a new one.',
        ),
      );
    const voided = voidInvoice(tx, existing, 'Replaced by a new advance invoice');
    if (!voided.ok) return voided;
  }
  const current = tx.get('subscriptions', subscription.id) ?? subscription;
  const charge = productCharge(tx, current, period.start, period.end);
  const lines = charge === undefined ? [] : [charge];
  const invoice = createInvoice(tx, {
    subscription: current,
    role: 'renewal',
    status: 'open',
    lines,
    coupons: renewalCouponSpecs(tx, current, lines),
    periodStartedAt: period.start,
    periodEndsAt: period.end,
    advance: true,
  });
  const applied = settleIfPaid(tx, applyBalances(tx, invoice));
  if (applied.status !== 'paid') collectInvoice(tx, applied.id, gateway);
  const latest = tx.get('subscriptions', subscription.id) ?? current;
  tx.put('subscriptions', { ...latest, advanceInvoiceId: invoice.id, updatedAt: tx.now });
  return ok(tx.get('invoices', invoice.id) ?? applied);
}

/** Voids the advance invoice (a reason is required; it must be open). */
export function voidAdvanceInvoice(
  tx: Transaction,
  subscription: Subscription,
  reason: string,
): Result<Invoice, DomainError> {
  const invoice =
    subscription.advanceInvoiceId === null ? undefined : tx.get('invoices', subscription.advanceInvoiceId);
  if (invoice === undefined || invoice.status === 'voided')
    return err({ code: 'not_found', status: 404, message: 'Advance invoice not found.' });
  if (invoice.status !== 'open')
    return err(refused(`Only an open advance invoice can be voided; this one is ${invoice.status}.`));
  return voidInvoice(tx, invoice, reason);
}
