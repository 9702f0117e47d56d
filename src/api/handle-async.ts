/**
 * `handleAsync(state, request, { now, payments })`: `handle` for a host whose payment processor answers
 * later. The engine stays synchronous and pure; payments are settled between passes (outcome-book.ts),
 * so the result is the synchronous path's with the same outcomes, to the byte.
 */

import { OutcomeBook } from '../domain/payment/outcome-book.js';
import type { AsyncPaymentGateway, SettledPayment } from '../domain/payment/types.js';
import { type CatchUpResult, effectiveNow } from '../engine/clock.js';
import { catchUpAsync } from '../engine/clock-async.js';
import type { SiteState } from '../engine/state.js';
import { answer, faulted, handle, parseNow, startCall } from './handle.js';
import type { ApiRequest, HandleResult } from './types.js';

/** The context of `handleAsync`: the current instant and the payment processor that answers later. */
export interface AsyncHandleContext {
  /** The current instant. */
  readonly now: string | Date;
  /**
   * The host's payment processor: answers an attempt with its outcome or a promise of it. It is asked
   * once per attempt, in the engine's order, with the attempt's idempotency key; a throw or a rejection
   * is a failed payment with its reason. When absent, the test gateway (`testGateway`: by the card's
   * last digit).
   */
  readonly payments?: AsyncPaymentGateway;
}

/**
 * What `handleAsync` answers: the result `handle` gives, and the processor's answers in the order it was
 * asked.
 */
export interface AsyncHandleResult extends HandleResult {
  /** The outcomes the processor gave, in the order it was asked: what a journal keeps to replay the call. */
  readonly payments: readonly SettledPayment[];
}

/**
 * Handles one REST request, putting each payment it makes to an asynchronous processor. It never
 * rejects: a fault in the engine answers 500, as `handle` does.
 * @example
 * const { state: next, response, payments } = await handleAsync(state, request, {
 *   now: clock.now(),
 *   payments: async (attempt) => processor.charge(attempt.amount, { idempotencyKey: attempt.idempotencyKey }),
 * });
 */
export async function handleAsync(
  state: SiteState,
  request: ApiRequest,
  context: AsyncHandleContext,
): Promise<AsyncHandleResult> {
  const processor = context.payments;
  const requested = parseNow(context.now);
  // Without a processor, or without a valid instant (no payment is then made), the synchronous path is
  // the whole story.
  if (processor === undefined || requested === undefined)
    return { ...handle(state, request, { now: context.now }), payments: [] };
  const now = effectiveNow(state, requested);
  const book = new OutcomeBook(processor);
  let caughtUp: CatchUpResult;
  try {
    caughtUp = await catchUpAsync(state, now, book);
  } catch (thrown) {
    return { ...faulted(startCall(state), thrown), payments: book.settled() };
  }
  for (;;) {
    const pass = book.pass();
    const progress = startCall(state);
    let result: HandleResult;
    try {
      result = answer(progress, caughtUp, now, request, pass.gateway);
    } catch (thrown) {
      result = faulted(progress, thrown);
    }
    const pending = pass.pending();
    if (pending === undefined) return { ...result, payments: book.settled() };
    await book.settle(pending);
  }
}
