/**
 * The event log and its indexes: the ids of each subscription's records and of each key's records,
 * ascending. A listing by subscription or by key then seeks in a list of the matching ids instead of
 * scanning the log. Every list is chunked, so appending copies at most one chunk of CHUNK_SIZE elements
 * per list touched (and the short arrays holding it), never a whole list.
 *
 * `applyChanges` appends the records of a request in one batch outside its immer draft (`appendEvents`):
 * pushing each record through immer's array proxies cost about 15 µs (measured on a 100,000-record
 * log), ten times the batch.
 */
import {
  CHUNK_SIZE,
  type ChunkedList,
  emptyIndex,
  emptyList,
  IndexWriter,
  indexGet,
  ListWriter,
  listAppendAllOwned,
  listGet,
  type Owned,
  type ShardedIndex,
} from '../../kernel/collection.js';
import type { SiteEvent } from './types.js';

export interface EventLogIndex {
  /** The ids of each subscription's records, at index `subscription_id - 1` (null: none yet). */
  readonly bySubscription: ChunkedList<ChunkedList<number> | null>;
  /** The ids of each key's records, keyed by the key as recorded (after the new catalog renames). */
  readonly byKey: ShardedIndex<ChunkedList<number>>;
}

/** The indexes of an empty log. @example emptyEventLogIndex().bySubscription.length // 0 */
export const emptyEventLogIndex = (): EventLogIndex => ({ bySubscription: emptyList(), byKey: emptyIndex() });

/** A subscription's record ids, ascending (empty when it has none). */
export const subscriptionEventIds = (index: EventLogIndex, subscriptionId: number): ChunkedList<number> =>
  listGet(index.bySubscription, subscriptionId - 1) ?? emptyList();

/** A key's record ids, ascending (empty when none was recorded). */
export const keyEventIds = (index: EventLogIndex, key: string): ChunkedList<number> =>
  indexGet(index.byKey, key) ?? emptyList();

function groupIds<K>(events: readonly SiteEvent[], keyOf: (event: SiteEvent) => K | null): Map<K, number[]> {
  const groups = new Map<K, number[]>();
  for (const event of events) {
    const key = keyOf(event);
    if (key === null) continue;
    const ids = groups.get(key);
    if (ids === undefined) groups.set(key, [event.id]);
    else ids.push(event.id);
  }
  return groups;
}

const validSubscriptionId = (event: SiteEvent): number | null =>
  event.subscription_id !== null && Number.isSafeInteger(event.subscription_id) && event.subscription_id >= 1
    ? event.subscription_id
    : null;

/**
 * A subscription's record ids with `ids` appended. Most subscriptions have a few records, and a list
 * grown by push keeps room for 17 ids or more behind them: while the ids fit in one chunk the chunk is
 * copied at its exact length (one copy of at most a chunk per request), larger lists grow in place.
 */
function appendedIds(list: ChunkedList<number>, ids: readonly number[], owned: Owned): ChunkedList<number> {
  const only = list.chunks[0] ?? [];
  if (list.chunks.length > 1 || only.length + ids.length > CHUNK_SIZE || owned.has(only))
    return listAppendAllOwned(list, ids, owned);
  return { length: only.length + ids.length, chunks: [only.concat(ids)] };
}

/**
 * The subscription slots with `additions` appended, padded with null up to the highest subscription:
 * subscription ids are sequential table ids, so the padding never exceeds the number of subscriptions.
 */
function withSubscriptionIds(
  slots: EventLogIndex['bySubscription'],
  additions: ReadonlyMap<number, readonly number[]>,
  owned: Owned,
): EventLogIndex['bySubscription'] {
  if (additions.size === 0) return slots;
  const writer = new ListWriter(slots, owned);
  let lastSlot = 0;
  for (const subscriptionId of additions.keys()) lastSlot = Math.max(lastSlot, subscriptionId - 1);
  while (writer.length <= lastSlot) writer.append(null);
  for (const [subscriptionId, ids] of additions) {
    const slot = subscriptionId - 1;
    writer.set(slot, appendedIds(writer.get(slot) ?? emptyList(), ids, owned));
  }
  return writer.result();
}

function withKeyIds(
  byKey: EventLogIndex['byKey'],
  additions: ReadonlyMap<string, readonly number[]>,
  owned: Owned,
): EventLogIndex['byKey'] {
  if (additions.size === 0) return byKey;
  const writer = new IndexWriter(byKey, owned);
  for (const [key, ids] of additions)
    writer.set(key, listAppendAllOwned(writer.get(key) ?? emptyList(), ids, owned));
  return writer.result();
}

/**
 * The indexes with `events` (ids continuing the indexed ones) added, as new objects sharing every
 * untouched chunk with the old ones: the part of `appendEvents` that a catch-up does once for all of its
 * steps, since none of them reads the indexes.
 */
export const indexedEvents = (
  index: EventLogIndex,
  events: readonly SiteEvent[],
  owned: Owned = new Set(),
): EventLogIndex => ({
  bySubscription: withSubscriptionIds(index.bySubscription, groupIds(events, validSubscriptionId), owned),
  byKey: withKeyIds(
    index.byKey,
    groupIds(events, (event) => event.key),
    owned,
  ),
});

/**
 * The log and its indexes with `events` appended (ids continuing the log's), as new objects sharing every
 * untouched chunk with the old ones.
 */
export function appendEvents(
  log: ChunkedList<SiteEvent>,
  index: EventLogIndex,
  events: readonly SiteEvent[],
  owned: Owned = new Set(),
): { readonly events: ChunkedList<SiteEvent>; readonly eventIndex: EventLogIndex } {
  return { events: listAppendAllOwned(log, events, owned), eventIndex: indexedEvents(index, events, owned) };
}
