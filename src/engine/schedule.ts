/**
 * The schedule: which subscriptions have something due, bucketed by the UTC day it falls due on. A
 * request costs nothing extra until the first bucket's day arrives; then only that bucket is read, never
 * every subscription. `evolve` keeps it up to date whenever a subscription row is written.
 *
 * A day's ids are a chunked list that only grows, so a write copies one chunk, not the day (immer copies
 * only what a draft writes under): moving a
 * subscription away leaves its entry behind (stale) and only counts it out. An entry counts while it is
 * its subscription's last entry in the bucket and the subscription is still due that day; the order of
 * the counting entries is the order in which the subscriptions joined the day.
 */

import { dueAt } from '../domain/subscription/schedule.js';
import type { Subscription } from '../domain/subscription/types.js';
import {
  type ChunkedList,
  emptyIndex,
  IndexWriter,
  listAppendAllOwned,
  listFromArray,
  listRange,
  type Mutable,
  type Owned,
  type ShardedIndex,
  type Table,
  tableGet,
} from '../kernel/collection.js';
import { hasKeysInOrder } from '../kernel/own-keys.js';
import type { Instant } from '../kernel/time.js';

export interface DayBucket {
  /** Tells a bucket from an earlier one of the same day that emptied (see `Schedule.serials`). */
  readonly serial: number;
  /** Subscription ids in the order they joined the day, stale entries included. */
  readonly ids: ChunkedList<number>;
  /** How many subscriptions are due that day. */
  readonly due: number;
}

export interface Schedule {
  /** The days (`YYYY-MM-DD`, UTC) that have a bucket, ascending. */
  readonly days: readonly string[];
  /** Buckets by day. */
  readonly buckets: ShardedIndex<DayBucket>;
  /** Buckets created so far. */
  readonly serials: number;
}

export const emptySchedule = (): Schedule => ({ days: [], buckets: emptyIndex(), serials: 0 });

export const dayOf = (instant: Instant | null): string | null =>
  instant === null ? null : instant.slice(0, 10);

const dayStart = (day: string): Instant => `${day}T00:00:00.000Z`;

/** The keys of a bucket, in the order this file writes them. */
const BUCKET_KEYS: readonly (keyof DayBucket)[] = ['serial', 'ids', 'due'];

/**
 * A bucket with another count, written out rather than spread: a renewal day moves every subscription
 * out of one bucket, and the spread site, having seen buckets made here, read back from JSON and spread,
 * went through V8's runtime for each (a third of what rescheduling cost). A bucket with other keys (a
 * state written by another version) is spread, so its JSON is what a spread gives.
 */
const withDue = (bucket: DayBucket, due: number): DayBucket =>
  hasKeysInOrder(bucket, BUCKET_KEYS) ? { serial: bucket.serial, ids: bucket.ids, due } : { ...bucket, due };

/**
 * The schedule with a subscription moved between day buckets after its row changed (`applyChanges`);
 * a deleted row (`next` undefined) leaves its bucket, so its day never holds up the days after it.
 */
export function rescheduled(
  schedule: Schedule,
  previous: Subscription | undefined,
  next: Subscription | undefined,
  owned: Owned = new Set(),
): Schedule {
  const oldDay = previous === undefined ? null : dayOf(dueAt(previous));
  const newDay = next === undefined ? null : dayOf(dueAt(next));
  if (oldDay === newDay) return schedule;
  let { days, serials } = schedule;
  const buckets = new IndexWriter(schedule.buckets, owned);
  const oldBucket = oldDay === null ? undefined : buckets.get(oldDay);
  if (oldDay !== null && oldBucket !== undefined) {
    if (oldBucket.due > 1) buckets.set(oldDay, counted(oldBucket, oldBucket.due - 1, owned));
    else {
      buckets.delete(oldDay);
      days = days.filter((day) => day !== oldDay);
    }
  }
  if (newDay === null || next === undefined)
    return scheduleOf(schedule, days, buckets.result(), serials, owned);
  const bucket = buckets.get(newDay);
  if (bucket !== undefined) {
    const ids = listAppendAllOwned(bucket.ids, [next.id], owned);
    buckets.set(newDay, joined(bucket, ids, owned));
    return scheduleOf(schedule, days, buckets.result(), serials, owned);
  }
  serials += 1;
  buckets.set(newDay, { serial: serials, ids: listFromArray([next.id]), due: 1 });
  const at = days.findIndex((day) => day > newDay);
  const position = at < 0 ? days.length : at;
  return {
    days: [...days.slice(0, position), newDay, ...days.slice(position)],
    buckets: buckets.result(),
    serials,
  };
}

/**
 * A bucket with another count: the very bucket when this batch made it (a renewal day counts every
 * subscription out of one bucket and into another; a new bucket for each step was garbage by the next),
 * else a new one the batch then owns.
 */
function counted(bucket: DayBucket, due: number, owned: Owned): DayBucket {
  if (owned.has(bucket)) {
    (bucket as Mutable<DayBucket>).due = due;
    return bucket;
  }
  const copy = withDue(bucket, due);
  owned.add(copy);
  return copy;
}

/** A bucket with one more subscription, its ids `ids`: the very bucket when this batch made it. */
function joined(bucket: DayBucket, ids: ChunkedList<number>, owned: Owned): DayBucket {
  if (owned.has(bucket) && hasKeysInOrder(bucket, BUCKET_KEYS)) {
    const mutable = bucket as Mutable<DayBucket>;
    mutable.ids = ids;
    mutable.due = bucket.due + 1;
    return bucket;
  }
  const made = { serial: bucket.serial, ids, due: bucket.due + 1 };
  owned.add(made);
  return made;
}

/** The schedule with these fields: the very object when this batch made it, else a new one it owns. */
function scheduleOf(
  schedule: Schedule,
  days: readonly string[],
  buckets: ShardedIndex<DayBucket>,
  serials: number,
  owned: Owned,
): Schedule {
  if (owned.has(schedule)) {
    const mutable = schedule as Mutable<Schedule>;
    mutable.days = days;
    mutable.buckets = buckets;
    mutable.serials = serials;
    return schedule;
  }
  const made = { days, buckets, serials };
  owned.add(made);
  return made;
}

/** The first scheduled day, when it has begun by `now`. */
export function firstDueDay(schedule: Schedule, now: Instant): string | null {
  const day = schedule.days[0];
  return day === undefined || dayStart(day) > now ? null : day;
}

export interface DueEntry {
  readonly at: Instant;
  /** The entry's position in its day's bucket: ties in `at` go in this order. */
  readonly position: number;
  readonly id: number;
}

/**
 * Reads a day's bucket from entry `from` on: the position of each id's last entry (into `latest`) and
 * the entries that count, in bucket order.
 */
export function readBucket(
  bucket: DayBucket,
  day: string,
  subscriptions: Table<Subscription>,
  from: number,
  latest: Map<number, number>,
): DueEntry[] {
  let position = from;
  for (const id of listRange(bucket.ids, from)) latest.set(id, position++);
  const entries: DueEntry[] = [];
  position = from;
  for (const id of listRange(bucket.ids, from)) {
    const subscription = latest.get(id) === position ? tableGet(subscriptions, id) : undefined;
    const at = subscription === undefined ? null : dueAt(subscription);
    if (at !== null && dayOf(at) === day) entries.push({ at, position, id });
    position += 1;
  }
  return entries;
}
