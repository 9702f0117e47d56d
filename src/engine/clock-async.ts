/**
 * Catching up with a processor that answers later: the same steps as `catchUp`, run as
 * slices. A slice stops before the first step that needs an unknown outcome, the processor is asked,
 * and the next slice performs that step with the answer. A step is the unit of work, so a renewal day
 * of n renewals costs n steps and n questions, never a whole catch-up per question.
 */

import type { SiteEvent } from '../domain/event-log/types.js';
import type { OutcomeBook } from '../domain/payment/outcome-book.js';
import type { Instant } from '../kernel/time.js';
import type { Change } from './changes.js';
import { type CatchUpResult, catchUp, STEPS_PER_CALL } from './clock.js';
import type { SiteState } from './state.js';

/**
 * Performs everything due up to `now`, asking the book's processor for each payment as it comes: the
 * result equals `catchUp` with a gateway that gives the same outcomes.
 */
export async function catchUpAsync(
  state: SiteState,
  now: Instant,
  book: OutcomeBook,
  limit: number = STEPS_PER_CALL,
): Promise<CatchUpResult> {
  const events: SiteEvent[] = [];
  const changes: Change[] = [];
  let current = state;
  let steps = 0;
  for (;;) {
    const pass = book.pass();
    const slice = catchUp(current, now, pass.gateway, limit - steps, () => pass.pending() !== undefined);
    current = slice.state;
    for (const change of slice.changes) changes.push(change);
    for (const event of slice.events) events.push(event);
    steps += slice.steps;
    const pending = pass.pending();
    if (pending === undefined) return { state: current, events, changes, complete: slice.complete, steps };
    await book.settle(pending);
  }
}
