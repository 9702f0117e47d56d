/**
 * The event log's indexes against a model, across chunk boundaries: records appended in batches through
 * `applyChanges` (as requests append them) land in the log and in the per-key and per-subscription id
 * lists exactly, earlier states are never altered, and `GET /events.json` pages with a key filter (the
 * multi-list seek) and `GET /events/count.json` equal the model.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keyEventIds, subscriptionEventIds } from '../../../src/domain/event-log/log-index.js';
import { Transaction } from '../../../src/engine/transaction.js';
import { applyChanges, type Change, createSite, handle, type SiteEvent } from '../../../src/index.js';
import { listToArray } from '../../../src/kernel/collection.js';

const KEYS = ['customer_update', 'statement_closed', 'billing_date_change'] as const;
// 1001 and 2500 put subscriptions past the first chunk of the per-subscription index.
const SUBSCRIPTIONS = [null, 1, 2, 3, 1001, 2500] as const;
const START = Date.parse('2026-01-01T00:00:00Z');

const recordArbitrary = fc.record({
  key: fc.constantFrom(...KEYS),
  subscription: fc.constantFrom(...SUBSCRIPTIONS),
});
// Up to 4,500 records in up to five batches: the log and the lists cross 1,000-element chunks.
// (`size: 'max'`: fast-check otherwise keeps arrays to about ten elements.)
const batchesArbitrary = fc.array(fc.array(recordArbitrary, { minLength: 1, maxLength: 900, size: 'max' }), {
  minLength: 1,
  maxLength: 5,
});

type Batch = readonly { key: string; subscription: number | null }[];

/** The states after each batch, and the model log. */
function build(batches: readonly Batch[]) {
  let state = createSite();
  const states = [state];
  // Each state as JSON when it was made: appending later must not write into what it shares.
  const snapshots = [JSON.stringify(state)];
  const model: SiteEvent[] = [];
  for (const [b, batch] of batches.entries()) {
    const created_at = new Date(START + b * 3_600_000).toISOString();
    const changes: Change[] = batch.map((record) => {
      const event: SiteEvent = {
        id: model.length + 1,
        key: record.key,
        message: 'm',
        subscription_id: record.subscription,
        customer_id: null,
        created_at,
        event_specific_data: null,
      };
      model.push(event);
      return { type: 'event', event };
    });
    state = applyChanges(state, changes);
    states.push(state);
    snapshots.push(JSON.stringify(state));
  }
  return { state, states, snapshots, model };
}

const ids = (events: readonly SiteEvent[]) => events.map((event) => event.id);

describe('event log indexes', () => {
  it('model: the log and its per-key and per-subscription id lists hold exactly the appended records', () => {
    fc.assert(
      fc.property(batchesArbitrary, (batches) => {
        const { states, snapshots, model } = build(batches);
        const last = states.at(-1) ?? createSite();
        expect(listToArray(last.events)).toEqual(model);
        for (const key of KEYS)
          expect(listToArray(keyEventIds(last.eventIndex, key))).toEqual(
            ids(model.filter((event) => event.key === key)),
          );
        for (const subscription of SUBSCRIPTIONS) {
          if (subscription === null) continue;
          expect(listToArray(subscriptionEventIds(last.eventIndex, subscription))).toEqual(
            ids(model.filter((event) => event.subscription_id === subscription)),
          );
        }
        // Appending shares chunks with earlier states but never writes into them.
        expect(states.map((state) => JSON.stringify(state))).toEqual(snapshots);
      }),
      { numRuns: 15 },
    );
  });

  it('seek: filtered pages and counts equal the model in both directions, deep pages included', () => {
    fc.assert(
      fc.property(
        batchesArbitrary,
        fc.subarray([...KEYS], { minLength: 1 }),
        fc.constantFrom('asc', 'desc'),
        fc.integer({ min: 1, max: 200 }),
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 0, max: 100 }),
        (batches, filter, direction, perPage, page, sincePercent) => {
          const { state, model } = build(batches);
          const since = Math.floor((model.length * sincePercent) / 100);
          const keys = new Set<string>(filter);
          const wanted = ids(model.filter((event) => keys.has(event.key) && event.id >= since));
          const ordered = direction === 'asc' ? wanted : [...wanted].reverse();
          const query = `filter=${filter.join(',')}&since_id=${since}&direction=${direction}`;
          const now = '2026-02-01T00:00:00Z';
          const listed = handle(
            state,
            { method: 'GET', path: `/events.json?${query}&per_page=${perPage}&page=${page}` },
            { now },
          ).response.body as { event: SiteEvent }[];
          expect(listed.map((item) => item.event.id)).toEqual(
            ordered.slice((page - 1) * perPage, page * perPage),
          );
          const counted = handle(state, { method: 'GET', path: `/events/count.json?${query}` }, { now });
          expect(counted.response.body).toEqual({ count: wanted.length });
        },
      ),
      { numRuns: 40 },
    );
  });

  it('order: a record made at an instant before the newest record is stamped at the newest instant', () => {
    const later = new Transaction(createSite(), '2026-01-10T00:00:00.000Z');
    later.record({ key: 'customer_update', message: 'later' });
    const state = applyChanges(createSite(), later.changes());
    // A step caught up late runs at its own, earlier instant.
    const late = new Transaction(state, '2026-01-05T00:00:00.000Z');
    const first = late.record({ key: 'statement_closed', message: 'late', subscriptionId: 1 });
    const next = applyChanges(state, late.changes());
    expect(first.created_at).toBe('2026-01-10T00:00:00.000Z');
    const listed = handle(
      next,
      { method: 'GET', path: '/events.json?start_date=2026-01-10&end_date=2026-01-10' },
      {
        now: '2026-01-11T00:00:00Z',
      },
    ).response.body as { event: SiteEvent }[];
    expect(listed.map((item) => item.event.id)).toEqual([2, 1]);
  });
});
