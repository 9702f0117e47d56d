import { describe, expect, it } from 'vitest';
import { advance, type SiteState } from '../../src/index.js';
import { call, get } from '../helpers/api.js';
import { busySite } from '../helpers/scenarios.js';

const comparable = (state: SiteState) => ({
  tables: state.tables,
  events: state.events,
  counters: state.counters,
});

describe('advance', () => {
  it('returns the very same state and no events for an instant it has already seen', () => {
    const base = busySite();
    const result = advance(base, { now: '2026-01-15T12:00:00Z' });
    expect(result.state).toBe(base);
    expect(result.events).toEqual([]);
  });

  it("equals handle's catch-up: the same tables, counters and events", () => {
    const base = busySite();
    for (const now of ['2026-01-20T00:00:00Z', '2026-02-20T00:00:00Z', '2026-05-01T00:00:00Z']) {
      const advanced = advance(base, { now });
      const handled = call(base, 'GET', '/subscriptions.json', undefined, now);
      expect(handled.status).toBe(200);
      expect(comparable(handled.state), now).toEqual(comparable(advanced.state));
      expect(handled.events, now).toEqual(advanced.events);
    }
  });

  it('after a read that caught up to now, an earlier now is taken as that now (as after advance)', () => {
    const base = busySite();
    const body = { customer: { first_name: 'A', last_name: 'B', email: 'a@b.co' } };
    const afterAdvance = advance(base, { now: '2026-03-01T00:00:00Z' }).state;
    const afterRead = call(base, 'GET', '/subscriptions.json', undefined, '2026-03-01T00:00:00Z').state;
    const viaAdvance = call(afterAdvance, 'POST', '/customers.json', body, '2026-02-20T00:00:00Z');
    const viaRead = call(afterRead, 'POST', '/customers.json', body, '2026-02-20T00:00:00Z');
    expect(get(viaAdvance.body, 'customer', 'created_at')).toBe('2026-03-01T00:00:00Z');
    expect(get(viaRead.body, 'customer', 'created_at')).toBe('2026-03-01T00:00:00Z');
  });

  it('moves the clock to now however time was split (small advances leave it where one big one does)', () => {
    // The trial without a card ends on 20 January at 12:00; nothing falls due after it.
    const base = busySite({}, ['trial-no-card']);
    const big = advance(base, { now: '2026-01-21T12:00:00Z' }).state;
    const first = advance(base, { now: '2026-01-20T12:00:00Z' }).state;
    const second = advance(first, { now: '2026-01-21T12:00:00Z' }).state;
    expect(big.clock).toBe('2026-01-21T12:00:00.000Z');
    expect(second.clock).toBe(big.clock);
  });

  it('never runs time backwards: advancing to an earlier instant changes nothing', () => {
    const later = advance(busySite(), { now: '2026-04-01T00:00:00Z' }).state;
    const earlier = advance(later, { now: '2026-02-01T00:00:00Z' });
    expect(earlier.state).toBe(later);
    expect(earlier.events).toEqual([]);
  });

  it('accepts a Date', () => {
    const base = busySite();
    const viaDate = advance(base, { now: new Date(Date.UTC(2026, 2, 1)) });
    const viaText = advance(base, { now: '2026-03-01T00:00:00Z' });
    expect(viaDate.state).toEqual(viaText.state);
  });
});
