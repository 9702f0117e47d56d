/**
 * What falls due up to `now`: renewals, trial ends, delayed cancellations, dunning steps and expiries,
 * handled in time order, each at its own instant, exactly as `advance` does.
 */

import type { SiteEvent } from '../domain/event-log/types.js';
import type { PaymentGateway } from '../domain/payment/types.js';
import { dueAt } from '../domain/subscription/schedule.js';
import type { Subscription } from '../domain/subscription/types.js';
import { tableGet } from '../kernel/collection.js';
import { invariant } from '../kernel/invariant.js';
import type { Instant } from '../kernel/time.js';
import { applyChanges } from './changes.js';
import { runDue } from './operations/lifecycle.js';
import { firstBucket } from './schedule.js';
import type { SiteState } from './state.js';
import { Transaction } from './transaction.js';

/** Time never runs backwards: an earlier `now` is taken as the latest instant the state has seen. */
export const effectiveNow = (state: SiteState, requested: Instant): Instant =>
  state.clock !== null && requested < state.clock ? state.clock : requested;

/** The subscription due first, when its day has begun by `now` (reads one schedule bucket). */
export function earliestDue(
  state: SiteState,
  now: Instant,
): { at: Instant; subscription: Subscription } | null {
  let earliest: { at: Instant; subscription: Subscription } | null = null;
  for (const id of firstBucket(state.schedule, now)) {
    const subscription = tableGet(state.tables.subscriptions, id);
    const at = subscription === undefined ? null : dueAt(subscription);
    if (subscription !== undefined && at !== null && (earliest === null || at < earliest.at))
      earliest = { at, subscription };
  }
  return earliest;
}

const MAX_STEPS = 1_000_000;

/** What a due step must change, so that catching up always ends. */
const progressOf = (subscription: Subscription): string =>
  [
    subscription.state,
    subscription.nextAssessmentAt,
    subscription.nextDunningAt,
    subscription.dunningAttempts,
    subscription.expiresAt,
    subscription.cancelAtEndOfPeriod,
  ].join('|');

/**
 * Performs everything due up to `now`, in time order.
 * @example const { state: caughtUp, events } = catchUp(state, '2026-02-01T00:00:00.000Z', testGateway);
 */
export function catchUp(
  state: SiteState,
  now: Instant,
  gateway: PaymentGateway,
): { state: SiteState; events: SiteEvent[] } {
  const events: SiteEvent[] = [];
  let current = state;
  for (let step = 0; step < MAX_STEPS; step += 1) {
    const due = earliestDue(current, now);
    if (due === null || due.at > now) return { state: current, events };
    const tx = new Transaction(current, due.at);
    runDue(tx, due.subscription, gateway);
    const updated = tx.get('subscriptions', due.subscription.id);
    invariant(
      updated === undefined || progressOf(updated) !== progressOf(due.subscription),
      'a due step moves its subscription on',
    );
    current = applyChanges(current, [...tx.changes(), { type: 'clock', now: due.at }]);
    events.push(...tx.events());
  }
  invariant(false, 'catch-up did not settle');
}

/**
 * Advances a site to `now` without a request (CONTRACT section 2): everything due is performed and the
 * clock moves to `now` (never backwards).
 */
export function advanceTo(
  state: SiteState,
  now: Instant,
  gateway: PaymentGateway,
): { state: SiteState; events: readonly SiteEvent[] } {
  const target = effectiveNow(state, now);
  const caught = catchUp(state, target, gateway);
  const clocked =
    caught.state.clock === target
      ? caught.state
      : applyChanges(caught.state, [{ type: 'clock', now: target }]);
  return { state: clocked, events: caught.events };
}
