/**
 * Laws of the subscription listing and of date-time bounds (SPEC 6), through handle(): a subscription's
 * pages are the site log filtered by that subscription, in either direction, with or without a key
 * filter and id bounds; start_datetime..end_datetime keeps exactly the records of those seconds.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SiteEvent } from '../../../src/index.js';
import { type Site, site } from '../../helpers/api.js';

const START = Date.parse('2026-01-15T12:00:00Z');
const SUBSCRIPTIONS = 3;

/** What one step does to a subscription (or to a customer without a subscription). */
const stepArbitrary = fc.record({
  kind: fc.constantFrom('prepay', 'credit', 'hold-or-resume', 'customer'),
  subscription: fc.integer({ min: 1, max: SUBSCRIPTIONS }),
  minutes: fc.integer({ min: 0, max: 600 }),
});
type Step = typeof stepArbitrary extends fc.Arbitrary<infer T> ? T : never;

/** A site with three subscriptions, then the steps, each some minutes after the previous one. */
function siteWith(steps: readonly Step[], zone = 'UTC'): Site {
  const s = site({ timeZone: zone }, new Date(START).toISOString());
  const product = s.product();
  for (let n = 0; n < SUBSCRIPTIONS; n += 1) s.subscribed(product);
  const held = new Set<number>();
  let elapsed = 0;
  for (const step of steps) {
    elapsed += step.minutes;
    s.at(new Date(START + elapsed * 60_000).toISOString());
    const id = step.subscription;
    if (step.kind === 'prepay')
      s.ok('POST', `/subscriptions/${id}/prepayments.json`, { prepayment: { amount: '1', memo: 'p' } });
    else if (step.kind === 'credit')
      s.ok('POST', `/subscriptions/${id}/service_credits.json`, { service_credit: { amount: '2' } });
    else if (step.kind === 'customer')
      s.ok('PUT', `/customers/${id}.json`, { customer: { first_name: 'C' } });
    else if (held.delete(id)) s.ok('POST', `/subscriptions/${id}/resume.json`, {}, 200);
    else {
      s.ok('POST', `/subscriptions/${id}/hold.json`, {}, 200);
      held.add(id);
    }
  }
  return s;
}

const records = (body: unknown): SiteEvent[] => (body as { event: SiteEvent }[]).map((item) => item.event);

/** Every page of a listing, in order, until a short page. */
function allPages(s: Site, path: string, query: string, perPage: number): SiteEvent[] {
  const seen: SiteEvent[] = [];
  for (let page = 1; page < 500; page += 1) {
    const got = records(s.ok('GET', `${path}?${query}&per_page=${perPage}&page=${page}`));
    expect(got.length).toBeLessThanOrEqual(perPage);
    seen.push(...got);
    if (got.length < perPage) return seen;
  }
  throw new Error('the listing did not end');
}

const siteLog = (s: Site) => allPages(s, '/events.json', 'direction=asc', 200);
const stepsArbitrary = fc.array(stepArbitrary, { minLength: 1, maxLength: 20 });
const KEYS = [
  'subscription_prepayment_account_balance_changed',
  'subscription_service_credit_account_balance_changed',
  'subscription_state_change',
  'signup_success',
  'customer_update',
] as const;

describe('subscription events laws', () => {
  it('subscription listing = the site listing filtered by subscription (pages, direction, filter, id bounds)', () => {
    fc.assert(
      fc.property(
        stepsArbitrary,
        fc.integer({ min: 1, max: 7 }),
        fc.constantFrom('asc', 'desc'),
        // Half the runs without a filter: the unfiltered listing seeks, the filtered one reads and tests.
        fc.oneof(fc.constant([]), fc.subarray([...KEYS], { minLength: 1 })),
        fc.option(fc.nat(70), { nil: undefined, freq: 2 }),
        fc.option(fc.nat(70), { nil: undefined, freq: 2 }),
        (steps, perPage, direction, filter, since, max) => {
          const s = siteWith(steps);
          const log = siteLog(s);
          const query = [
            `direction=${direction}`,
            filter.length > 0 ? `filter=${filter.join(',')}` : '',
            since === undefined ? '' : `since_id=${since}`,
            max === undefined ? '' : `max_id=${max}`,
          ]
            .filter((part) => part !== '')
            .join('&');
          for (let id = 1; id <= SUBSCRIPTIONS; id += 1) {
            const wanted = log.filter(
              (event) =>
                event.subscription_id === id &&
                (filter.length === 0 || (filter as string[]).includes(event.key)) &&
                (since === undefined || event.id >= since) &&
                (max === undefined || event.id <= max),
            );
            const expected = direction === 'asc' ? wanted : [...wanted].reverse();
            expect(allPages(s, `/subscriptions/${id}/events.json`, query, perPage)).toEqual(expected);
          }
        },
      ),
      { numRuns: 20 },
    );
  });

  it('datetime bounds: start_datetime..end_datetime (any offset, any site zone) keep exactly those seconds', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('UTC', 'Pacific/Apia', 'America/New_York', 'Asia/Kolkata'),
        stepsArbitrary,
        fc.integer({ min: -60, max: 3000 }),
        fc.integer({ min: 0, max: 3000 }),
        fc.constantFrom('Z', '+05:30', '-05:00', '+13:00'),
        (zone, steps, startMinute, lengthMinutes, offset) => {
          const s = siteWith(steps, zone);
          const start = START + startMinute * 60_000;
          const end = start + lengthMinutes * 60_000;
          const written = (ms: number) => {
            if (offset === 'Z') return new Date(ms).toISOString().slice(0, 19).concat('Z');
            const sign = offset.startsWith('-') ? -1 : 1;
            const shift = sign * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6))) * 60_000;
            return new Date(ms + shift).toISOString().slice(0, 19).concat(offset);
          };
          const expected = siteLog(s).filter((event) => {
            const at = Date.parse(event.created_at);
            return at >= start && at < end + 1000;
          });
          const query = `start_datetime=${encodeURIComponent(written(start))}&end_datetime=${encodeURIComponent(written(end))}&direction=asc`;
          expect(allPages(s, '/events.json', query, 200)).toEqual(expected);
          expect(s.ok('GET', `/events/count.json?${query}`)).toEqual({ count: expected.length });
        },
      ),
      { numRuns: 20 },
    );
  });
});
