/**
 * A subscription leaving a day's bucket rewrites the bucket with one fewer due: field by field when the
 * bucket has the keys this version writes, in its order, and spread otherwise, so that a bucket read
 * back from a state written another way keeps its JSON.
 */
import { describe, expect, test } from 'vitest';
import { type ApiRequest, advance, createSite, handle, type SiteState } from '../../src/index.js';
import { indexGet } from '../../src/kernel/collection.js';
import { GOLD_CATALOG } from '../helpers/api.js';

const DAY = '2026-02-15';

/** Three monthly subscriptions signed up at 09:00, 10:00 and 11:00 on 15 January: one bucket on 15 February. */
function site(): SiteState {
  let state = createSite();
  const setup: ApiRequest[] = [...GOLD_CATALOG];
  for (const request of setup) state = handle(state, request, { now: '2026-01-15T08:00:00Z' }).state;
  for (const hour of [9, 10, 11]) {
    const request: ApiRequest = {
      method: 'POST',
      path: '/subscriptions.json',
      body: {
        subscription: {
          product_handle: 'gold',
          customer_attributes: { first_name: 'Ada', last_name: `L${hour}`, email: `ada${hour}@example.com` },
          credit_card_attributes: {
            full_number: '4111111111111111',
            expiration_month: 12,
            expiration_year: 2030,
          },
        },
      },
    };
    state = handle(state, request, { now: `2026-01-15T${hour}:00:00Z` }).state;
  }
  return state;
}

const bucketJson = (state: SiteState): string => JSON.stringify(indexGet(state.schedule.buckets, DAY));

describe('a day bucket with one fewer due', () => {
  test('as this version writes it: the same keys, in order, with the count down by one', () => {
    const before = site();
    expect(Object.keys(JSON.parse(bucketJson(before)))).toEqual(['serial', 'ids', 'due']);
    const after = advance(before, { now: `${DAY}T09:30:00Z` }).state;
    const bucket = JSON.parse(bucketJson(after)) as { due: number; ids: unknown };
    expect(Object.keys(bucket)).toEqual(['serial', 'ids', 'due']);
    expect(bucket.due).toBe(2);
  });

  test('read back with its keys in another order: that order kept, as a spread keeps it', () => {
    const text = JSON.stringify(site());
    const original = bucketJson(site());
    const parsed = JSON.parse(original) as { serial: number; ids: unknown; due: number };
    const reordered = JSON.stringify({ due: parsed.due, serial: parsed.serial, ids: parsed.ids });
    expect(text.split(original).length).toBe(2);
    const loaded = JSON.parse(text.replace(original, reordered)) as SiteState;
    const after = advance(loaded, { now: `${DAY}T09:30:00Z` }).state;
    expect(Object.keys(JSON.parse(bucketJson(after)))).toEqual(['due', 'serial', 'ids']);
    expect((JSON.parse(bucketJson(after)) as { due: number }).due).toBe(2);
  });
});
