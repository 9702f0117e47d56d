/** `advance(state, { now })`: perform everything due up to `now` without a request. */

import type { SiteEvent } from '../domain/event-log/types.js';
import { guardedGateway } from '../domain/payment/guarded-gateway.js';
import { OutcomeBook } from '../domain/payment/outcome-book.js';
import { testGateway } from '../domain/payment/test-gateway.js';
import type { AsyncPaymentGateway, PaymentGateway, SettledPayment } from '../domain/payment/types.js';
import { toInstant } from '../kernel/time.js';
import type { Change } from './changes.js';
import { type Advanced, advanceTo, clockAfter, effectiveNow } from './clock.js';
import { catchUpAsync } from './clock-async.js';
import type { SiteState } from './state.js';

/**
 * Advances a site's time to `now`: renewals, trial ends, delayed cancellations, dunning steps and
 * expiries, in time order. `changes` are the applied changes in order (the event-sourced log of the call).
 * One call performs at most `STEPS_PER_CALL` (20,000) due steps, so no `now` can stall a host or exhaust
 * its memory: `complete` is false when more fell due by `now`, and the clock then stays at the last step
 * performed; call again to go on.
 * @example const { state: later, events, complete } = advance(state, { now: '2026-03-01T00:00:00Z' });
 */
export function advance(
  state: SiteState,
  context: { readonly now: string | Date; readonly payments?: PaymentGateway },
): {
  /** The site after everything that fell due; the very same object when nothing did. */
  state: SiteState;
  /** The event-log records the call appended, in order. */
  events: readonly SiteEvent[];
  /** The changes the call applied, in order: folded onto the input state, they give `state`. */
  changes: readonly Change[];
  /** False when more fell due by `now` than one call performs (`STEPS_PER_CALL`): call again to go on. */
  complete: boolean;
} {
  const payments = context.payments;
  return advanceTo(
    state,
    toInstant(context.now),
    payments === undefined ? testGateway : guardedGateway(payments),
  );
}

/** What `advanceAsync` did: as `advance`, with the outcomes the processor gave, in the order asked. */
export interface AsyncAdvanceResult extends Advanced {
  /** The outcomes the processor gave, in the order it was asked: what a journal keeps to replay the call. */
  readonly payments: readonly SettledPayment[];
}

/**
 * `advance` with a processor that answers later (every real one). Each payment is put to `payments` once,
 * with its idempotency key, in the order the engine makes it; a rejection is a failed payment with its
 * reason. The result equals `advance` with a gateway that gives the same outcomes, to the byte.
 * @example const { state: later, payments } = await advanceAsync(state, { now, payments: (attempt) => processor.charge(attempt) });
 */
export async function advanceAsync(
  state: SiteState,
  context: { readonly now: string | Date; readonly payments: AsyncPaymentGateway },
): Promise<AsyncAdvanceResult> {
  const target = effectiveNow(state, toInstant(context.now));
  const book = new OutcomeBook(context.payments);
  const caught = await catchUpAsync(state, target, book);
  return { ...clockAfter(caught, target), payments: book.settled() };
}
