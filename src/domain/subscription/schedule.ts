/** When things fall due for a subscription, and its billing periods. */
import { type CalendarStep, type Instant, shiftFromAnchor } from '../../kernel/time.js';
import type { IntervalUnit } from '../catalog/types.js';
import type { Subscription } from './types.js';

/** The calendar step of an interval. @example stepOf(3, 'month') // { months: 3 } */
export const stepOf = (interval: number, unit: IntervalUnit): CalendarStep =>
  unit === 'month' ? { months: interval } : { days: interval };

/**
 * Period `n` counted from an anchor: `[anchor + n·step, anchor + (n+1)·step)` in the site zone, so that
 * consecutive periods cover every instant once and month ends clamp from the anchor day.
 * @example periodOf('2026-01-31T00:00:00.000Z', 'UTC', { months: 1 }, 1) // { start: '2026-02-28T…', end: '2026-03-31T…' }
 */
export function periodOf(
  anchor: Instant,
  zone: string,
  step: CalendarStep,
  n: number,
): {
  /** The period's first instant. */
  start: Instant;
  /** The instant after its last: the next period's start. */
  end: Instant;
} {
  return { start: shiftFromAnchor(anchor, zone, step, n), end: shiftFromAnchor(anchor, zone, step, n + 1) };
}

const LIVE_STATES = new Set(['active', 'past_due', 'unpaid', 'trialing', 'soft_failure']);

/**
 * The earliest instant at which the engine must act on a subscription (renewal, trial end, delayed
 * cancellation, dunning retry, expiry), or null when nothing is scheduled.
 */
export function dueAt(subscription: Subscription): Instant | null {
  if (subscription.state === 'on_hold') return subscription.automaticallyResumeAt;
  if (!LIVE_STATES.has(subscription.state)) return null;
  let due: Instant =
    subscription.state === 'trialing' ? subscription.currentPeriodEndsAt : subscription.nextAssessmentAt;
  if (subscription.nextDunningAt !== null && subscription.nextDunningAt < due)
    due = subscription.nextDunningAt;
  if (subscription.expiresAt !== null && subscription.expiresAt < due) due = subscription.expiresAt;
  return due;
}
