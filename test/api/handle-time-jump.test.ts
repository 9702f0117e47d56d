/**
 * Time jumps are bounded (issue 21 item 4): one call performs at most STEPS_PER_CALL due steps, keeps
 * them, and says that more fell due; the next call goes on from there. No `now`, however far ahead,
 * makes one request stall the site or exhaust its memory.
 */
import { describe, expect, it } from 'vitest';
import { STEPS_PER_CALL } from '../../src/engine/clock.js';
import { advance, handle } from '../../src/index.js';
import { checkLedger } from '../../src/testing/index.js';
import { site } from '../helpers/api.js';

/** A site with a daily $1.00 subscription on a card: every day one renewal falls due. */
function daily() {
  const s = site();
  const product = s.product({ price_in_cents: 100, interval: 1, interval_unit: 'day' });
  const { id } = s.subscribed(product);
  return { s, id };
}

describe('a clock moved far ahead', () => {
  it('a request to the year 3000 performs one slice, answers 503 with Retry-After, and the next goes on', () => {
    const { s, id } = daily();
    const far = '3000-01-01T00:00:00Z';
    const first = handle(s.state, { method: 'GET', path: `/subscriptions/${id}.json` }, { now: far });
    expect(first.response.status).toBe(503);
    expect(first.response.headers).toEqual({ 'Retry-After': '0' });
    expect(first.events.filter((event) => event.key === 'renewal_success')).toHaveLength(STEPS_PER_CALL);
    // The clock stops at the last step performed, so the slice is kept and nothing is done twice.
    expect(first.state.clock).not.toBe('3000-01-01T00:00:00.000Z');
    expect(first.state.clock! < '3000-01-01').toBe(true);
    const second = handle(first.state, { method: 'GET', path: `/subscriptions/${id}.json` }, { now: far });
    expect(second.response.status).toBe(503);
    expect(second.events.filter((event) => event.key === 'renewal_success')).toHaveLength(STEPS_PER_CALL);
    expect(checkLedger(second.state)).toEqual([]);
  });

  it('advance does the same, and says whether it is complete', () => {
    const { s } = daily();
    const sliced = advance(s.state, { now: '2200-01-01T00:00:00Z' });
    expect(sliced.complete).toBe(false);
    expect(sliced.events.filter((event) => event.key === 'renewal_success')).toHaveLength(STEPS_PER_CALL);
    const near = advance(s.state, { now: '2026-03-01T00:00:00Z' });
    expect(near.complete).toBe(true);
    expect(near.state.clock).toBe('2026-03-01T00:00:00.000Z');
  });
});
