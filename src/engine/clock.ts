/**
 * What falls due up to `now`: renewals, trial ends, delayed cancellations, dunning steps and expiries,
 * handled in time order, each at its own instant, exactly as `advance` does.
 */

import type { SiteEvent } from '../domain/event-log/types.js';
import type { PaymentGateway } from '../domain/payment/types.js';
import type { Subscription } from '../domain/subscription/types.js';
import { invariant } from '../kernel/invariant.js';
import type { Instant } from '../kernel/time.js';
import { applyChanges, applyInBatch, type Change, withIndexedEvents } from './changes.js';
import { DueQueue } from './due-queue.js';
import { runDue } from './renewal/lifecycle.js';
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
  return new DueQueue().earliest(state, now);
}

/**
 * The most due steps one call performs, so that a clock moved to the year 3000 stalls no server and
 * exhausts no memory. A call that reaches it keeps what it did, stops at the last step's
 * instant, and says so; the next call goes on from there. At about 0.1 ms a step, a slice is a second or two.
 */
export const STEPS_PER_CALL = 20_000;

/**
 * Whether a due step left its subscription where it found it (so catching up would never end): compared
 * field by field, not through a joined string of them, which cost every step of a renewal day two strings.
 */
const sameProgress = (before: Subscription, after: Subscription): boolean =>
  before.state === after.state &&
  before.nextAssessmentAt === after.nextAssessmentAt &&
  before.nextDunningAt === after.nextDunningAt &&
  before.dunningAttempts === after.dunningAttempts &&
  before.expiresAt === after.expiresAt &&
  before.cancelAtEndOfPeriod === after.cancelAtEndOfPeriod;

/**
 * The due queue a state's catch-up left, for the next request on that state: a day's bucket of a few
 * hundred subscriptions otherwise costs every request a full read (30 µs) while the day is under way.
 * A queue is taken out when used, so a state handled twice (a branch) starts the second from scratch;
 * the cache holds nothing a state does not determine, so results never depend on it.
 */
const dueQueues = new WeakMap<SiteState, DueQueue>();

function takeDueQueue(state: SiteState): DueQueue {
  const queue = dueQueues.get(state);
  if (queue === undefined) return new DueQueue();
  dueQueues.delete(state);
  return queue;
}

/** Passes the queue left on `from` on to `to`, a state that `changes` made from it. */
export function handOnDueQueue(from: SiteState, to: SiteState, changes: readonly Change[]): void {
  const queue = dueQueues.get(from);
  if (queue === undefined || from === to) return;
  dueQueues.delete(from);
  queue.noteChanges(changes);
  dueQueues.set(to, queue);
}

/** What a catch-up did: the state it reached, what it recorded and applied, and whether it is done. */
export interface CatchUpResult {
  readonly state: SiteState;
  readonly events: SiteEvent[];
  readonly changes: Change[];
  /** False when more fell due by `now` than the step limit allowed, or a step waits for a payment. */
  readonly complete: boolean;
  /** How many due steps it performed. */
  readonly steps: number;
}

/**
 * Performs everything due up to `now`, in time order; `changes` are what it applied, in order, so that
 * folding them onto the input state gives the output state (the event-sourced log of the catch-up).
 * @example const { state: caughtUp, events } = catchUp(state, '2026-02-01T00:00:00.000Z', testGateway);
 */
export function catchUp(
  state: SiteState,
  now: Instant,
  gateway: PaymentGateway,
  limit: number = STEPS_PER_CALL,
  paused?: () => boolean,
): CatchUpResult {
  const events: SiteEvent[] = [];
  const changes: Change[] = [];
  let current = state;
  const queue = takeDueQueue(state);
  // One batch for every step: a chunk copied by one renewal is changed in place by the next, instead of
  // being copied again for each of a renewal day's thousands of renewals. Only the last state leaves.
  const owned = new Set<object>();
  // No due step reads the event log's indexes: its records are indexed once, when the catch-up returns.
  const unindexed: SiteEvent[] = [];
  for (let step = 0; ; step += 1) {
    const due = queue.earliest(current, now);
    if (due === null || due.at > now || step >= limit) {
      current = withIndexedEvents(current, unindexed, owned);
      dueQueues.set(current, queue);
      return { state: current, events, changes, complete: due === null || due.at > now, steps: step };
    }
    const tx = new Transaction(current, due.at);
    runDue(tx, due.subscription, gateway);
    // A payment whose outcome is not known yet (the asynchronous path): the step is dropped, unapplied,
    // to be performed again once the outcome is in. The queue is dropped too: it has moved past the step.
    if (paused?.() === true) {
      const reached = withIndexedEvents(current, unindexed, owned);
      return { state: reached, events, changes, complete: false, steps: step };
    }
    const updated = tx.get('subscriptions', due.subscription.id);
    invariant(
      updated === undefined || !sameProgress(due.subscription, updated),
      'a due step moves its subscription on',
    );
    // The step's clock follows its changes; it is applied with them rather than pushed onto the
    // transaction's list, which that push regrew by half for every step.
    const stepChanges = tx.changes();
    queue.noteChanges(stepChanges);
    current = applyInBatch(current, stepChanges, owned, unindexed, due.at);
    for (const change of stepChanges) changes.push(change);
    changes.push({ type: 'clock', now: due.at });
    for (const event of tx.events()) events.push(event);
  }
}

/** What advancing a site did: the catch-up's work, and the clock moved to the target when it finished. */
export interface Advanced {
  /** The site after everything that fell due; the very same object when nothing did. */
  readonly state: SiteState;
  /** The event-log records the call appended, in order. */
  readonly events: readonly SiteEvent[];
  /**
   * The changes the call applied, in order: folded onto the input state with `applyChanges`, they give
   * `state`.
   */
  readonly changes: readonly Change[];
  /** False when more fell due by `now` than one call performs (`STEPS_PER_CALL`): call again to go on. */
  readonly complete: boolean;
}

/**
 * A catch-up to `target` finished as `advance` finishes it: the clock moves to `target`, unless the step
 * limit stopped it, when the clock stays at the last step performed and a later call goes on.
 */
export function clockAfter(caught: CatchUpResult, target: Instant): Advanced {
  if (!caught.complete || caught.state.clock === target)
    return { state: caught.state, events: caught.events, changes: caught.changes, complete: caught.complete };
  const clock: Change = { type: 'clock', now: target };
  const advanced = applyChanges(caught.state, [clock]);
  handOnDueQueue(caught.state, advanced, [clock]);
  return { state: advanced, events: caught.events, changes: [...caught.changes, clock], complete: true };
}

/**
 * Advances a site to `now` without a request: everything due is performed and the
 * clock moves to `now` (never backwards).
 */
export function advanceTo(state: SiteState, now: Instant, gateway: PaymentGateway): Advanced {
  const target = effectiveNow(state, now);
  return clockAfter(catchUp(state, target, gateway), target);
}
