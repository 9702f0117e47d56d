/**
 * A sliding-window rate limit over a short list of instants: at most `limit` admitted events in any
 * `seconds`-long window. The list holds only what the window still needs (at most `limit` instants), so
 * a check costs O(limit) whatever the history.
 */
import { err, ok, type Result } from '../../kernel/result.js';
import { addSeconds, epochMs, type Instant } from '../../kernel/time.js';

/** A rate limit: at most `limit` events in any `seconds`. */
export interface SlidingWindow {
  /** The most events the window admits. */
  readonly limit: number;
  /** The window's length in seconds. */
  readonly seconds: number;
}

/** Five in any thirty minutes: payment update emails and billing portal invitations. */
export const FIVE_PER_THIRTY_MINUTES: SlidingWindow = { limit: 5, seconds: 30 * 60 };

/**
 * Admits an event at `now` or refuses it. Admitted: the list to keep (oldest first, `now` last). Refused:
 * the first instant at which the same request would be admitted. An earlier event counts against `now`
 * while it is less than `seconds` old, so the window is `(now - seconds, now]`.
 * @example
 * admit([], '2026-01-01T00:00:00.000Z', { limit: 1, seconds: 60 }) // ok(['2026-01-01T00:00:00.000Z'])
 * admit(['2026-01-01T00:00:00.000Z'], '2026-01-01T00:00:30.000Z', { limit: 1, seconds: 60 })
 * // err('2026-01-01T00:01:00.000Z')
 */
export function admit(
  recent: readonly Instant[],
  now: Instant,
  window: SlidingWindow,
): Result<readonly Instant[], Instant> {
  const horizon = epochMs(now) - window.seconds * 1000;
  const live = recent.filter((at) => epochMs(at) > horizon);
  if (live.length >= window.limit) {
    const blocking = live[live.length - window.limit];
    if (blocking !== undefined) return err(addSeconds(blocking, window.seconds));
  }
  return ok([...live, now].slice(-window.limit));
}
