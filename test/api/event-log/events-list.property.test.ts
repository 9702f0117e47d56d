/** Laws of the event listing (SPEC 6), through handle(): paging, id bounds, local-day date ranges. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SiteEvent } from '../../../src/index.js';
import { type Site, site } from '../../helpers/api.js';

const ZONES = [
  'UTC',
  'America/New_York',
  'Asia/Kolkata',
  'Pacific/Apia',
  'Pacific/Kiritimati',
  'Pacific/Pago_Pago',
];
const DAY = 86_400_000;
const START = Date.parse('2026-01-10T00:00:00Z');

/** A site whose log holds customer_create/update/delete records at the given hour offsets from START. */
function siteWithLog(zone: string, hours: readonly number[]): Site {
  const s = site({ timeZone: zone }, new Date(START).toISOString());
  let elapsed = 0;
  for (const [index, hour] of hours.entries()) {
    elapsed += hour;
    s.at(new Date(START + elapsed * 3_600_000).toISOString());
    const id = Number(
      (
        s.ok('POST', '/customers.json', {
          customer: { first_name: 'A', last_name: `B${index}`, email: `a${index}@x.io` },
        }) as {
          customer: { id: number };
        }
      ).customer.id,
    );
    if (index % 3 === 1) s.ok('PUT', `/customers/${id}.json`, { customer: { first_name: 'C' } });
    if (index % 4 === 2) s.request('DELETE', `/customers/${id}.json`);
  }
  return s;
}

const ids = (body: unknown): number[] => (body as { event: SiteEvent }[]).map((item) => item.event.id);
const log = (s: Site): SiteEvent[] => {
  const all: SiteEvent[] = [];
  for (let page = 1; ; page += 1) {
    const body = s.ok('GET', `/events.json?direction=asc&per_page=200&page=${page}`) as {
      event: SiteEvent;
    }[];
    if (body.length === 0) return all;
    all.push(...body.map((item) => item.event));
  }
};
const localDate = (instant: string, zone: string) =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date(instant));

const KEYS = ['customer_create', 'customer_update', 'customer_delete'] as const;
const hoursArbitrary = fc.array(fc.integer({ min: 0, max: 30 }), { minLength: 1, maxLength: 25 });

describe('List Events laws', () => {
  it('partition: the pages of a filtered listing are the filtered log in order, without gap or repeat', () => {
    fc.assert(
      fc.property(
        hoursArbitrary,
        fc.integer({ min: 1, max: 12 }),
        fc.constantFrom('asc', 'desc'),
        fc.subarray([...KEYS]),
        (hours, perPage, direction, filter) => {
          const s = siteWithLog('UTC', hours);
          const wanted = log(s)
            .filter((event) => filter.length === 0 || filter.includes(event.key as (typeof KEYS)[number]))
            .map((event) => event.id);
          const expected = direction === 'asc' ? wanted : [...wanted].reverse();
          const seen: number[] = [];
          const query = `per_page=${perPage}&direction=${direction}${filter.length > 0 ? `&filter=${filter.join(',')}` : ''}`;
          for (let page = 1; page <= expected.length + 2; page += 1) {
            const got = ids(s.ok('GET', `/events.json?${query}&page=${page}`));
            expect(got.length).toBeLessThanOrEqual(perPage);
            seen.push(...got);
            if (got.length < perPage) break;
          }
          expect(seen).toEqual(expected);
          expect(s.ok('GET', `/events/count.json?${query}`)).toEqual({ count: expected.length });
        },
      ),
      { numRuns: 25 },
    );
  });

  it('bounds: since_id and max_id keep exactly the ids within [since_id, max_id]', () => {
    fc.assert(
      fc.property(hoursArbitrary, fc.nat(60), fc.nat(60), (hours, since, max) => {
        const s = siteWithLog('UTC', hours);
        const expected = log(s)
          .map((event) => event.id)
          .filter((id) => id >= since && id <= max);
        expect(
          ids(s.ok('GET', `/events.json?since_id=${since}&max_id=${max}&direction=asc&per_page=200`)),
        ).toEqual(expected);
      }),
      { numRuns: 25 },
    );
  });

  it('local days: start_date..end_date in the site zone covers exactly the events of those local days', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        hoursArbitrary,
        fc.integer({ min: -1, max: 20 }),
        fc.integer({ min: 0, max: 5 }),
        (zone, hours, offset, length) => {
          const s = siteWithLog(zone, hours);
          const first = new Date(START + offset * DAY).toISOString().slice(0, 10);
          const last = new Date(START + (offset + length) * DAY).toISOString().slice(0, 10);
          const expected = log(s)
            .filter((event) => {
              const day = localDate(event.created_at, zone);
              return day >= first && day <= last;
            })
            .map((event) => event.id);
          const got = ids(
            s.ok('GET', `/events.json?start_date=${first}&end_date=${last}&direction=asc&per_page=200`),
          );
          expect(got).toEqual(expected);
        },
      ),
      { numRuns: 25 },
    );
  });
});
