import { test } from '@fast-check/vitest';
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { createSite, type SiteState } from '../../../src/index.js';
import { call, num } from '../../helpers/api.js';
import { componentIds, createPath, METRICS, minimalFields } from '../../helpers/components.js';

/** A site with one family and `count` metered components created at the given instants (ascending). */
function siteWith(count: number, zone: string, instants: readonly string[] = []): SiteState {
  let state = createSite({ timeZone: zone, metrics: METRICS });
  const first = instants[0] ?? '2026-01-15T12:00:00Z';
  state = call(
    state,
    'POST',
    '/product_families.json',
    { product_family: { name: 'f', handle: 'f' } },
    first,
  ).state;
  for (let index = 0; index < count; index += 1) {
    const now = instants[index] ?? first;
    const created = call(
      state,
      'POST',
      createPath('metered_component', 1),
      { metered_component: minimalFields('metered_component') },
      now,
    );
    expect(created.status).toBe(201);
    expect(num(created.body, 'component', 'id')).toBe(index + 1);
    state = created.state;
  }
  return state;
}

/** The local calendar day of an instant in a zone, by Intl (independent of the engine). */
const localDay = (instant: string, zone: string): string =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date(instant));

const ZONES = [
  'UTC',
  'America/New_York',
  'Pacific/Apia',
  'Asia/Kolkata',
  'Australia/Lord_Howe',
  'Europe/London',
];

describe('components: listing laws', () => {
  test.prop([fc.integer({ min: 0, max: 45 }), fc.integer({ min: 1, max: 12 })], { numRuns: 40 })(
    'pages partition the components: no gap, no repeat, in id order, then empty',
    (count, perPage) => {
      const state = siteWith(count, 'UTC');
      const seen: number[] = [];
      const pages = Math.ceil(count / perPage);
      for (let page = 1; page <= pages + 1; page += 1) {
        const listed = call(state, 'GET', `/components.json?page=${page}&per_page=${perPage}`);
        expect(listed.state).toBe(state);
        const ids = componentIds(listed.body);
        expect(ids.length).toBe(page <= pages ? Math.min(perPage, count - (page - 1) * perPage) : 0);
        seen.push(...ids);
      }
      expect(seen).toEqual(Array.from({ length: count }, (_, index) => index + 1));
    },
  );

  const scenario = fc.record({
    zone: fc.constantFrom(...ZONES),
    // Creation times: ascending offsets (in minutes) over about six days from a fixed start.
    steps: fc.array(fc.integer({ min: 0, max: 900 }), { minLength: 1, maxLength: 14 }),
    startOffset: fc.integer({ min: -1, max: 6 }),
    length: fc.integer({ min: 0, max: 4 }),
  });

  test.prop([scenario], { numRuns: 60 })(
    'a start_date..end_date range in the site zone lists exactly the components created on those local days',
    ({ zone, steps, startOffset, length }) => {
      const base = Date.parse('2026-03-06T00:00:00Z');
      let minutes = 0;
      const instants = steps.map((step) => {
        minutes += step;
        return new Date(base + minutes * 60_000).toISOString();
      });
      const state = siteWith(instants.length, zone, instants);
      const day = (offset: number) => new Date(base + offset * 86_400_000).toISOString().slice(0, 10);
      const start = day(startOffset);
      const end = day(startOffset + length);
      const listed = call(
        state,
        'GET',
        `/components.json?date_field=created_at&start_date=${start}&end_date=${end}&per_page=200`,
        undefined,
        instants[instants.length - 1],
      );
      expect(listed.status).toBe(200);
      const expected = instants.flatMap((instant, index) => {
        const local = localDay(instant, zone);
        return local >= start && local <= end ? [index + 1] : [];
      });
      expect(componentIds(listed.body)).toEqual(expected);
    },
  );
});
