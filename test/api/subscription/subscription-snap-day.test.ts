/**
 * Calendar billing by update (`snap_day` in `PUT /subscriptions/{id}.json`): the next billing date moves
 * to the first snap day after now and every later renewal falls on that day (the month's last day for
 * `end`, through short months); one big step of time equals many small; a refused snap changes nothing.
 */
import { describe, expect, it } from 'vitest';
import { advance } from '../../../src/index.js';
import { checkLedger, checkState } from '../../../src/testing/index.js';
import { errorsOf, get, type Site, site, str } from '../../helpers/api.js';

const put = (s: Site, id: number, fields: Record<string, unknown>) =>
  get(s.ok('PUT', `/subscriptions/${id}.json`, { subscription: fields }), 'subscription');

/** The period ends a subscription passes through, renewal after renewal. */
function periodEnds(s: Site, id: number, steps: readonly string[]): string[] {
  return steps.map((now) => {
    s.advance(now);
    return str(s.subscription(id), 'current_period_ends_at');
  });
}

describe('snap_day in PUT /subscriptions/{id}.json', () => {
  it('snaps to a day of the month: the first one after now, then every month', () => {
    const s = site({}, '2026-01-10T12:00:00Z');
    const { id } = s.subscribed(s.product({ price_in_cents: 1000 }));
    const called = s.request('PUT', `/subscriptions/${id}.json`, { subscription: { snap_day: 5 } });
    expect(called.status).toBe(200);
    expect(called.events.map((event) => event.key)).toEqual(['billing_date_change']);
    const snapped = get(called.body, 'subscription');
    expect(str(snapped, 'current_period_ends_at')).toBe('2026-02-05T12:00:00Z');
    expect(str(snapped, 'snap_day')).toBe('5');
    expect(
      periodEnds(s, id, ['2026-02-05T12:00:00Z', '2026-03-05T12:00:00Z', '2026-04-05T12:00:00Z']),
    ).toEqual(['2026-03-05T12:00:00Z', '2026-04-05T12:00:00Z', '2026-05-05T12:00:00Z']);
    expect(str(s.subscription(id), 'snap_day')).toBe('5');
    expect(s.invoices(id).map((invoice) => str(invoice, 'total_amount'))).toEqual([
      '10.00',
      '10.00',
      '10.00',
      '10.00',
    ]);
    expect(checkLedger(s.state)).toEqual([]);
    expect(checkState(s.state)).toEqual([]);
  });

  it("snaps to the month's end, through 30-day months and February", () => {
    const s = site({}, '2026-04-10T08:00:00Z');
    const { id } = s.subscribed(s.product({ price_in_cents: 1000 }));
    expect(str(put(s, id, { snap_day: 'end' }), 'current_period_ends_at')).toBe('2026-04-30T08:00:00Z');
    expect(
      periodEnds(s, id, [
        '2026-04-30T08:00:00Z',
        '2026-05-31T08:00:00Z',
        '2026-06-30T08:00:00Z',
        '2027-01-31T08:00:00Z',
      ]),
    ).toEqual([
      '2026-05-31T08:00:00Z',
      '2026-06-30T08:00:00Z',
      '2026-07-31T08:00:00Z',
      '2027-02-28T08:00:00Z',
    ]);
    expect(str(s.subscription(id), 'snap_day')).toBe('end');
    expect(checkLedger(s.state)).toEqual([]);
  });

  it('one big step of time after a snap equals many small ones', () => {
    const s = site({}, '2026-01-10T12:00:00Z');
    const { id } = s.subscribed(s.product({ price_in_cents: 1000 }));
    put(s, id, { snap_day: 'end' });
    const big = advance(s.state, { now: '2026-06-01T00:00:00Z' }).state;
    let small = s.state;
    for (const month of ['01', '02', '03', '04', '05'])
      small = advance(small, { now: `2026-${month}-28T00:00:00Z` }).state;
    small = advance(small, { now: '2026-06-01T00:00:00Z' }).state;
    expect(small.tables.subscriptions).toEqual(big.tables.subscriptions);
    expect(small.tables.invoices).toEqual(big.tables.invoices);
    expect(checkLedger(big)).toEqual([]);
  });

  it('a later billing date change ends the snap', () => {
    const s = site({}, '2026-01-10T12:00:00Z');
    const { id } = s.subscribed(s.product({ price_in_cents: 1000 }));
    put(s, id, { snap_day: 12 });
    expect(get(put(s, id, { next_billing_at: '2026-01-20T12:00:00Z' }), 'snap_day')).toBeNull();
  });

  it('refuses a bad day, a day with next_billing_at, a daily product and a canceled subscription', () => {
    const s = site({}, '2026-01-10T12:00:00Z');
    const { id } = s.subscribed(s.product({ price_in_cents: 1000 }));
    const path = `/subscriptions/${id}.json`;
    expect(errorsOf(s.fail('PUT', path, { subscription: { snap_day: 29 } }, 422))).toContain(
      "Snap day: must be a day from 1 to 28 or 'end'.",
    );
    s.fail('PUT', path, { subscription: { snap_day: 'start' } }, 422);
    s.fail('PUT', path, { subscription: { snap_day: 5, next_billing_at: '2026-01-20T12:00:00Z' } }, 422);
    const daily = s.subscribed(s.product({ price_in_cents: 100, interval: 7, interval_unit: 'day' }));
    expect(
      errorsOf(s.fail('PUT', `/subscriptions/${daily.id}.json`, { subscription: { snap_day: 5 } }, 422)),
    ).toContain('calendar billing needs a product billed in months');
    s.ok('DELETE', path, undefined, 200);
    s.fail('PUT', path, { subscription: { snap_day: 5 } }, 422);
  });
});
