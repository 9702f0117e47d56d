import { fc, test as propertyTest } from '@fast-check/vitest';
import { describe, expect, test } from 'vitest';
import {
  appendEvents,
  type EventLogIndex,
  emptyEventLogIndex,
  keyEventIds,
  subscriptionEventIds,
} from '../../../src/domain/event-log/log-index.js';
import type { SiteEvent } from '../../../src/domain/event-log/types.js';
import { CHUNK_SIZE, type ChunkedList, emptyList, listToArray } from '../../../src/kernel/collection.js';

const event = (id: number, key: string, subscriptionId: number | null): SiteEvent => ({
  id,
  key,
  message: `event ${id}`,
  subscription_id: subscriptionId,
  customer_id: null,
  created_at: '2026-01-01T00:00:00Z',
  event_specific_data: null,
});

type Appended = ReturnType<typeof appendEvents>;

const emptyLog = (): Appended => ({ events: emptyList(), eventIndex: emptyEventLogIndex() });

/** Appends each record in a batch of its own, as a request that records one event does. */
const appendedOneByOne = (events: readonly SiteEvent[]): Appended =>
  events.reduce((log, record) => appendEvents(log.events, log.eventIndex, [record]), emptyLog());

const chunkLengths = <T>(list: ChunkedList<T>): number[] => list.chunks.map((chunk) => chunk.length);

/** The subscription slots as plain arrays (null where a subscription has no record). */
const slotsOf = (index: Pick<EventLogIndex, 'bySubscription'>) =>
  listToArray(index.bySubscription).map((ids) => (ids === null ? null : listToArray(ids)));

describe('emptyEventLogIndex', () => {
  test('has no subscription slot and no key', () => {
    const index = emptyEventLogIndex();
    expect(index.bySubscription).toEqual({ length: 0, chunks: [] });
    expect(keyEventIds(index, 'signup_success')).toEqual(emptyList());
    expect(subscriptionEventIds(index, 1)).toEqual(emptyList());
  });
});

describe('appendEvents, one record at a time', () => {
  test('starts a list for a new key and appends to a known one', () => {
    const { eventIndex: index } = appendedOneByOne([
      event(1, 'signup_success', null),
      event(2, 'payment_success', null),
      event(3, 'signup_success', null),
    ]);
    expect(listToArray(keyEventIds(index, 'signup_success'))).toEqual([1, 3]);
    expect(listToArray(keyEventIds(index, 'payment_success'))).toEqual([2]);
    expect(keyEventIds(index, 'renewal_success').length).toBe(0);
  });

  test('pads the subscription slots with null up to a new subscription', () => {
    const { eventIndex: index } = appendedOneByOne([event(1, 'signup_success', 3)]);
    expect(slotsOf(index)).toEqual([null, null, [1]]);
    expect(subscriptionEventIds(index, 2).length).toBe(0);
  });

  test('appends to the next slot, fills a padded slot and grows an existing list', () => {
    const records = [
      event(1, 'signup_success', 1),
      event(2, 'signup_success', 2),
      event(3, 'signup_success', 4),
      event(4, 'payment_success', 3),
      event(5, 'payment_success', 1),
    ];
    const steps: Appended[] = [];
    let log = emptyLog();
    for (const record of records) {
      log = appendEvents(log.events, log.eventIndex, [record]);
      steps.push(log);
    }
    expect(slotsOf(log.eventIndex)).toEqual([[1, 5], [2], [4], [3]]);
    expect(log.eventIndex.bySubscription.length).toBe(4);
    // Every intermediate version still holds what it held when it was made.
    expect(steps.map((step) => slotsOf(step.eventIndex))).toEqual([
      [[1]],
      [[1], [2]],
      [[1], [2], null, [3]],
      [[1], [2], [4], [3]],
      [[1, 5], [2], [4], [3]],
    ]);
  });

  test.each([
    ['no subscription', null],
    ['subscription 0', 0],
    ['a negative subscription', -2],
    ['a fractional subscription', 1.5],
    ['an unsafe integer', 2 ** 53],
  ])('indexes a record of %s by key only', (_name, subscriptionId) => {
    const { events, eventIndex: index } = appendedOneByOne([event(1, 'site_event', subscriptionId)]);
    expect(index.bySubscription).toEqual({ length: 0, chunks: [] });
    expect(listToArray(keyEventIds(index, 'site_event'))).toEqual([1]);
    expect(events.length).toBe(1);
  });

  test('a slot index past the first chunk lands in the second chunk', () => {
    const { eventIndex: index } = appendedOneByOne([event(7, 'signup_success', CHUNK_SIZE + 2)]);
    expect(chunkLengths(index.bySubscription)).toEqual([CHUNK_SIZE, 2]);
    expect(listToArray(subscriptionEventIds(index, CHUNK_SIZE + 2))).toEqual([7]);
    expect(subscriptionEventIds(index, CHUNK_SIZE + 1).length).toBe(0);
  });
});

describe('appendEvents', () => {
  test('appends the records to the log and both indexes', () => {
    const events = [
      event(1, 'signup_success', 2),
      event(2, 'payment_success', null),
      event(3, 'payment_success', 2),
      event(4, 'signup_success', 1),
    ];
    const { events: log, eventIndex } = appendEvents(emptyList(), emptyEventLogIndex(), events);
    expect(listToArray(log)).toEqual(events);
    expect(log.length).toBe(4);
    expect(slotsOf(eventIndex)).toEqual([[4], [1, 3]]);
    expect(listToArray(keyEventIds(eventIndex, 'payment_success'))).toEqual([2, 3]);
    expect(listToArray(keyEventIds(eventIndex, 'signup_success'))).toEqual([1, 4]);
  });

  test('an empty batch returns the very same log and indexes', () => {
    const first = appendEvents(emptyList(), emptyEventLogIndex(), [event(1, 'signup_success', 1)]);
    const second = appendEvents(first.events, first.eventIndex, []);
    expect(second.events).toBe(first.events);
    expect(second.eventIndex.bySubscription).toBe(first.eventIndex.bySubscription);
    expect(second.eventIndex.byKey).toBe(first.eventIndex.byKey);
  });

  test('a batch without subscription records leaves the subscription slots untouched', () => {
    const first = appendEvents(emptyList(), emptyEventLogIndex(), [event(1, 'signup_success', 1)]);
    const second = appendEvents(first.events, first.eventIndex, [
      event(2, 'site_event', null),
      event(3, 'site_event', 0),
      event(4, 'site_event', 2.5),
    ]);
    expect(second.eventIndex.bySubscription).toBe(first.eventIndex.bySubscription);
    expect(listToArray(keyEventIds(second.eventIndex, 'site_event'))).toEqual([2, 3, 4]);
    // A key the batch does not touch keeps its ids in the new index.
    expect(listToArray(keyEventIds(second.eventIndex, 'signup_success'))).toEqual([1]);
  });

  test('leaves the old log and indexes as they were', () => {
    const first = appendEvents(emptyList(), emptyEventLogIndex(), [event(1, 'signup_success', 1)]);
    appendEvents(first.events, first.eventIndex, [event(2, 'signup_success', 1), event(3, 'other', 2)]);
    expect(listToArray(first.events).map((e) => e.id)).toEqual([1]);
    expect(slotsOf(first.eventIndex)).toEqual([[1]]);
    expect(listToArray(keyEventIds(first.eventIndex, 'signup_success'))).toEqual([1]);
    expect(keyEventIds(first.eventIndex, 'other').length).toBe(0);
  });

  test('fills the last chunk to CHUNK_SIZE, then starts a new one, sharing the full chunks', () => {
    const ids = (from: number, count: number) =>
      Array.from({ length: count }, (_, i) => event(from + i, 'k', 1));
    const first = appendEvents(emptyList(), emptyEventLogIndex(), ids(1, CHUNK_SIZE - 1));
    expect(chunkLengths(first.events)).toEqual([CHUNK_SIZE - 1]);
    const second = appendEvents(first.events, first.eventIndex, ids(CHUNK_SIZE, 1));
    expect(chunkLengths(second.events)).toEqual([CHUNK_SIZE]);
    const third = appendEvents(second.events, second.eventIndex, ids(CHUNK_SIZE + 1, 3));
    expect(chunkLengths(third.events)).toEqual([CHUNK_SIZE, 3]);
    expect(third.events.chunks[0]).toBe(second.events.chunks[0]);
    expect(third.events.length).toBe(CHUNK_SIZE + 3);
    const byKey = keyEventIds(third.eventIndex, 'k');
    expect(chunkLengths(byKey)).toEqual([CHUNK_SIZE, 3]);
    expect(listToArray(subscriptionEventIds(third.eventIndex, 1))).toEqual(
      Array.from({ length: CHUNK_SIZE + 3 }, (_, i) => i + 1),
    );
  });

  test('a batch longer than two chunks splits at every CHUNK_SIZE', () => {
    const events = Array.from({ length: 2 * CHUNK_SIZE + 1 }, (_, i) => event(i + 1, 'k', null));
    const { events: log } = appendEvents(emptyList(), emptyEventLogIndex(), events);
    expect(chunkLengths(log)).toEqual([CHUNK_SIZE, CHUNK_SIZE, 1]);
  });

  test('pads subscription slots across a chunk boundary and keeps untouched chunks shared', () => {
    const first = appendEvents(emptyList(), emptyEventLogIndex(), [event(1, 'k', CHUNK_SIZE + 500)]);
    expect(first.eventIndex.bySubscription.length).toBe(CHUNK_SIZE + 500);
    expect(chunkLengths(first.eventIndex.bySubscription)).toEqual([CHUNK_SIZE, 500]);
    expect(subscriptionEventIds(first.eventIndex, 1).length).toBe(0);
    const second = appendEvents(first.events, first.eventIndex, [event(2, 'k', CHUNK_SIZE + 1)]);
    expect(second.eventIndex.bySubscription.chunks[0]).toBe(first.eventIndex.bySubscription.chunks[0]);
    expect(listToArray(subscriptionEventIds(second.eventIndex, CHUNK_SIZE + 1))).toEqual([2]);
    expect(subscriptionEventIds(first.eventIndex, CHUNK_SIZE + 1).length).toBe(0);
    expect(second.eventIndex.bySubscription.length).toBe(CHUNK_SIZE + 500);
  });

  const batches = fc.array(
    fc.array(
      fc.record({
        key: fc.constantFrom('a', 'b', 'c'),
        subscription: fc.option(fc.integer({ min: -1, max: 6 }), { nil: null }),
      }),
      { maxLength: 6 },
    ),
    { maxLength: 5 },
  );

  propertyTest.prop([batches], { numRuns: 60 })(
    'law: appending records in batches gives the same log and indexes as all at once or one at a time',
    (records) => {
      let batched = emptyLog();
      let nextId = 1;
      const all: SiteEvent[] = [];
      for (const batch of records) {
        const events = batch.map(({ key, subscription }) => event(nextId++, key, subscription));
        all.push(...events);
        const before = JSON.stringify(batched);
        const next = appendEvents(batched.events, batched.eventIndex, events);
        expect(JSON.stringify(batched)).toBe(before);
        batched = next;
      }
      const atOnce = appendEvents(emptyList(), emptyEventLogIndex(), all);
      const oneByOne = appendedOneByOne(all);
      expect(batched).toStrictEqual(atOnce);
      expect(oneByOne).toStrictEqual(atOnce);
      expect(listToArray(batched.events)).toEqual(all);
      // And the indexes say what the records say.
      for (const key of ['a', 'b', 'c'])
        expect(listToArray(keyEventIds(batched.eventIndex, key))).toEqual(
          all.filter((e) => e.key === key).map((e) => e.id),
        );
      for (let subscription = 1; subscription <= 6; subscription += 1)
        expect(listToArray(subscriptionEventIds(batched.eventIndex, subscription))).toEqual(
          all.filter((e) => e.subscription_id === subscription).map((e) => e.id),
        );
    },
  );
});
