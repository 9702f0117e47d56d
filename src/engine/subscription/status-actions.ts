/**
 * Status operations a merchant runs by hand: retry the payment dunning chases, stop dunning, change
 * when a hold ends, and activate a trialing subscription now. Money moves only through the invoice
 * paths the renewal engine uses, so the books stay balanced.
 */

import { type DomainError, invalid } from '../../domain/errors.js';
import type { PaymentGateway } from '../../domain/payment/types.js';
import { can } from '../../domain/subscription/transitions.js';
import type { Subscription } from '../../domain/subscription/types.js';
import { err, ok, type Result } from '../../kernel/result.js';
import type { Instant } from '../../kernel/time.js';
import { collectInvoice } from '../invoice/collect.js';
import { endTrial } from '../renewal/lifecycle.js';
import type { Transaction } from '../transaction.js';
import { changeState } from './state-change.js';
import { refusedTransition } from './status.js';

const IN_DUNNING = new Set(['past_due', 'soft_failure', 'unpaid']);

/**
 * Retries now every invoice dunning chases. All paid ends dunning (`active`); otherwise the subscription
 * stays as it was, its dunning schedule untouched: a manual retry uses up no dunning step.
 */
export function retryNow(
  tx: Transaction,
  subscription: Subscription,
  gateway: PaymentGateway,
): Result<Subscription, DomainError> {
  if (!can(subscription.state, 'retry_payment')) return err(refusedTransition(subscription, 'retry_payment'));
  const unpaid: number[] = [];
  for (const invoiceId of subscription.dunningInvoiceIds) {
    const invoice = tx.get('invoices', invoiceId);
    if (invoice === undefined || invoice.status === 'paid' || invoice.status === 'voided') continue;
    const outcome = collectInvoice(tx, invoiceId, gateway);
    if (outcome.kind !== 'paid' && outcome.kind !== 'nothing-due') unpaid.push(invoiceId);
  }
  const current = tx.get('subscriptions', subscription.id) ?? subscription;
  if (unpaid.length > 0)
    return ok(tx.put('subscriptions', { ...current, dunningInvoiceIds: unpaid, updatedAt: tx.now }));
  return ok(
    changeState(tx, current, 'active', { dunningAttempts: 0, nextDunningAt: null, dunningInvoiceIds: [] }),
  );
}

/**
 * Stops dunning: the subscription is `active` again and no retry or final action is scheduled. What its
 * invoices owe is still owed (they stay open); a subscription not in dunning is answered as it is.
 */
export function cancelDunning(tx: Transaction, subscription: Subscription): Subscription {
  if (!IN_DUNNING.has(subscription.state)) return subscription;
  return changeState(tx, subscription, 'active', {
    dunningAttempts: 0,
    nextDunningAt: null,
    dunningInvoiceIds: [],
  });
}

/** Changes when a subscription on hold resumes by itself (null: it stays on hold until resumed). */
export function rescheduleResume(
  tx: Transaction,
  subscription: Subscription,
  resumeAt: Instant | null,
): Result<Subscription, DomainError> {
  if (subscription.state !== 'on_hold')
    return err(invalid('invalid_transition', 'Only a subscription on hold resumes automatically.', 'base'));
  if (resumeAt !== null && resumeAt <= tx.now)
    return err(
      invalid(
        'invalid_resume_at',
        'Automatically resume at: must be in the future.',
        'automatically_resume_at',
      ),
    );
  return ok(tx.put('subscriptions', { ...subscription, automaticallyResumeAt: resumeAt, updatedAt: tx.now }));
}

/** Why an activation did not go through, as the official `{errors: {field: [...]}}` of a 400. */
export interface ActivationRefusal {
  readonly field: string;
  readonly message: string;
}

/**
 * Activates a trialing subscription now: its trial ends and its first paid period starts and is billed,
 * exactly as at the trial's end. When the payment fails, `revertOnFailure` refuses the activation (the
 * caller keeps nothing of it); otherwise the subscription goes on as a trial end with a failed payment
 * would (dunning, or `trial_ended` with no way to pay).
 */
export function activateNow(
  tx: Transaction,
  subscription: Subscription,
  revertOnFailure: boolean,
  gateway: PaymentGateway,
): Result<Subscription, ActivationRefusal> {
  if (subscription.state !== 'trialing')
    return err({
      field: 'base',
      message: `Cannot activate a ${subscription.state} subscription: only trialing ones can be activated.`,
    });
  endTrial(tx, subscription, gateway);
  const after = tx.get('subscriptions', subscription.id) ?? subscription;
  if (revertOnFailure && after.state !== 'active')
    return err({
      field: 'base',
      message:
        after.state === 'trial_ended'
          ? 'The subscription has no way to pay: add a payment profile or use remittance.'
          : 'The activation payment failed.',
    });
  return ok(after);
}
