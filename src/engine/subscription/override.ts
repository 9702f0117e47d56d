/**
 * Overriding dates the engine keeps (activation, cancellation, expiry, the current period's start), to
 * align imported history. Only the fields named change: an expiry date does not move the next billing
 * date, but the subscription does expire then. No money moves.
 */

import { type DomainError, invalid } from '../../domain/errors.js';
import type { Subscription } from '../../domain/subscription/types.js';
import { err, ok, type Result } from '../../kernel/result.js';
import type { Instant } from '../../kernel/time.js';
import { listed } from '../list-index.js';
import type { Transaction } from '../transaction.js';

/** The dates and message an override may set; absent fields are left as they are. */
export interface SubscriptionOverride {
  readonly activatedAt?: Instant;
  readonly canceledAt?: Instant;
  readonly cancellationMessage?: string | null;
  readonly expiresAt?: Instant | null;
  readonly currentPeriodStartsAt?: Instant;
}

const refused = (message: string, field: string): DomainError => invalid('invalid_override', message, field);

/** Applies an override whose every field holds, or refuses it whole. */
export function overrideSubscription(
  tx: Transaction,
  subscription: Subscription,
  override: SubscriptionOverride,
): Result<Subscription, DomainError> {
  const { activatedAt, canceledAt, expiresAt, currentPeriodStartsAt } = override;
  if (activatedAt !== undefined && activatedAt > tx.now)
    return err(refused('Activated at: cannot be in the future.', 'activated_at'));
  if (canceledAt !== undefined && subscription.state !== 'canceled')
    return err(refused('Canceled at: only a canceled subscription has a cancellation date.', 'canceled_at'));
  if (canceledAt !== undefined && canceledAt > tx.now)
    return err(refused('Canceled at: cannot be in the future.', 'canceled_at'));
  if (expiresAt !== undefined && expiresAt !== null && expiresAt <= tx.now)
    return err(refused('Expires at: must be in the future.', 'expires_at'));
  if (currentPeriodStartsAt !== undefined) {
    if (listed(tx.state.listIndexes, 'subscriptionInvoices', subscription.id).length > 0)
      return err(
        refused(
          'Current period starts at: the subscription has been billed already.',
          'current_period_starts_at',
        ),
      );
    if (currentPeriodStartsAt >= tx.now)
      return err(refused('Current period starts at: must be in the past.', 'current_period_starts_at'));
  }
  return ok(
    tx.put('subscriptions', {
      ...subscription,
      activatedAt: activatedAt ?? subscription.activatedAt,
      canceledAt: canceledAt ?? subscription.canceledAt,
      cancellationMessage:
        override.cancellationMessage === undefined
          ? subscription.cancellationMessage
          : override.cancellationMessage,
      expiresAt: expiresAt === undefined ? subscription.expiresAt : expiresAt,
      currentPeriodStartedAt: currentPeriodStartsAt ?? subscription.currentPeriodStartedAt,
      updatedAt: tx.now,
    }),
  );
}
