/**
 * The server's clock: real time, or a frozen instant that a test moves forward on purpose
 * (`POST /_test/clock.json`).
 */

import { toInstant } from '../kernel/time.js';

/** An ISO 8601 instant as the engine reads it (a string without a zone is UTC), or undefined. */
export function parseInstant(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length === 0 || value.length > 64) return undefined;
  try {
    return toInstant(value);
  } catch {
    return undefined;
  }
}

export interface Clock {
  /** The current instant, as an ISO string in UTC. */
  now(): string;
  /** Whether the clock is frozen (and so can be moved). */
  readonly frozen: boolean;
  /** Moves a frozen clock to `instant`; refuses to move it backwards. */
  moveTo(instant: string): { readonly ok: true } | { readonly ok: false; readonly error: string };
}

/** Real time. */
export function realClock(): Clock {
  return {
    now: () => new Date().toISOString(),
    frozen: false,
    moveTo: () => ({ ok: false, error: 'The clock follows real time and cannot be moved.' }),
  };
}

/** A clock frozen at `start` (an instant as `parseInstant` returns it). */
export function frozenClock(start: string): Clock {
  let current = start;
  return {
    now: () => current,
    frozen: true,
    moveTo: (instant) => {
      if (Date.parse(instant) < Date.parse(current))
        return { ok: false, error: `The clock cannot move backwards: it is at ${current}.` };
      current = instant;
      return { ok: true };
    },
  };
}
