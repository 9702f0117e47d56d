import { test } from '@fast-check/vitest';
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { advance, applyChanges, type SiteState } from '../../src/index.js';
import { busySite, SUBSCRIPTION_KINDS } from '../helpers/scenarios.js';

const START = Date.parse('2026-01-15T12:00:00Z');
const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** Advances through every instant in order; the last one is the target. */
function stepwise(state: SiteState, instants: readonly string[]) {
  let current = state;
  const keys: string[] = [];
  for (const now of instants) {
    const result = advance(current, { now });
    current = result.state;
    keys.push(...result.events.map((event) => event.key));
  }
  return { state: current, keys };
}

const compared = (state: SiteState) => ({
  subscriptions: state.tables.subscriptions,
  invoices: state.tables.invoices,
  counters: state.counters,
  events: state.events,
});

describe('time advances', () => {
  test('law: one big advance equals daily advances over four months', () => {
    const base = busySite();
    const before = JSON.stringify(base);
    const end = START + 120 * 24 * HOUR;
    const daily = Array.from({ length: 120 }, (_, day) => iso(START + (day + 1) * 24 * HOUR));
    const big = advance(base, { now: iso(end) });
    // A catch-up changes what it made in place from one step to the next, never what it was given.
    expect(JSON.stringify(base)).toBe(before);
    const small = stepwise(base, daily);
    expect(JSON.stringify(base)).toBe(before);
    // Folding its changes one by one onto the state it was given gives the state it returned.
    expect(JSON.stringify(applyChanges(base, big.changes))).toBe(JSON.stringify(big.state));
    expect(compared(small.state)).toEqual(compared(big.state));
    expect(small.keys).toEqual(big.events.map((event) => event.key));
    expect(JSON.stringify(small.state)).toBe(JSON.stringify(big.state));
  });

  test.prop(
    [
      fc.subarray([...SUBSCRIPTION_KINDS], { minLength: 1 }),
      fc.integer({ min: 1, max: 150 }),
      fc.array(fc.integer({ min: 1, max: 24 * 40 }), { minLength: 1, maxLength: 40 }),
    ],
    { numRuns: 15 },
  )(
    'law: one big advance equals many small advances at arbitrary split points',
    (kinds, days, stepsHours) => {
      const base = busySite({}, kinds);
      const end = START + days * 24 * HOUR;
      const instants: string[] = [];
      let at = START;
      for (const hours of stepsHours) {
        at += hours * HOUR;
        if (at >= end) break;
        instants.push(iso(at));
      }
      instants.push(iso(end));
      const big = advance(base, { now: iso(end) });
      const small = stepwise(base, instants);
      expect(compared(small.state)).toEqual(compared(big.state));
      expect(small.keys).toEqual(big.events.map((event) => event.key));
    },
  );
});
