/**
 * What falls due for a subscription at an instant: resume, expiry, a dunning retry, a delayed
 * cancellation, a trial's end or a renewal.
 */

import { dueAt } from './schedule.js';
import type { Subscription } from './types.js';

type DueAction = 'resume' | 'expire' | 'retry' | 'cancel' | 'end-trial' | 'renew';

/** What falls due for a subscription at `now` (its `dueAt`), or null when nothing is scheduled. */
export function dueAction(subscription: Subscription, now: string): DueAction | null {
  const at = dueAt(subscription);
  if (at === null) return null;
  if (subscription.state === 'on_hold') return 'resume';
  if (subscription.expiresAt !== null && subscription.expiresAt <= now) return 'expire';
  // A retry due at the same instant as the renewal runs first; the renewal is then the next step.
  if (subscription.nextDunningAt !== null && subscription.nextDunningAt === at) return 'retry';
  if (subscription.cancelAtEndOfPeriod) return 'cancel';
  if (subscription.state === 'trialing') return 'end-trial';
  return 'renew';
}
