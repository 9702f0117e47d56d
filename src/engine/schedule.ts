/**
 * The schedule: which subscriptions have something due, bucketed by the UTC day it falls due on. A
 * request costs nothing extra until the first bucket's day arrives; then only that bucket is read, never
 * every subscription. `evolve` keeps it up to date whenever a subscription row is written.
 */

import { dueAt } from '../domain/subscription/schedule.js';
import type { Subscription } from '../domain/subscription/types.js';
import {
  emptyIndex,
  indexDeleteInPlace,
  indexGet,
  indexSetInPlace,
  type MutableShardedIndex,
  type ShardedIndex,
} from '../kernel/collection.js';
import type { Instant } from '../kernel/time.js';

export interface Schedule {
  /** The days (`YYYY-MM-DD`, UTC) that have a bucket, ascending. */
  readonly days: readonly string[];
  /** Subscription ids by day. */
  readonly buckets: ShardedIndex<readonly number[]>;
}

export interface MutableSchedule {
  days: string[];
  buckets: MutableShardedIndex<number[]>;
}

export const emptySchedule = (): Schedule => ({ days: [], buckets: emptyIndex() });

const dayOf = (instant: Instant | null): string | null => (instant === null ? null : instant.slice(0, 10));

/** Moves a subscription between buckets after its row changed (inside `evolve`). */
export function reschedule(
  schedule: MutableSchedule,
  previous: Subscription | undefined,
  next: Subscription,
): void {
  const oldDay = previous === undefined ? null : dayOf(dueAt(previous));
  const newDay = dayOf(dueAt(next));
  if (oldDay === newDay) return;
  if (oldDay !== null) {
    const bucket = indexGet(schedule.buckets, oldDay) ?? [];
    const remaining = bucket.filter((id) => id !== next.id);
    if (remaining.length > 0) indexSetInPlace(schedule.buckets, oldDay, remaining);
    else {
      indexDeleteInPlace(schedule.buckets, oldDay);
      schedule.days.splice(schedule.days.indexOf(oldDay), 1);
    }
  }
  if (newDay !== null) {
    const bucket = indexGet(schedule.buckets, newDay);
    if (bucket === undefined) {
      indexSetInPlace(schedule.buckets, newDay, [next.id]);
      const at = schedule.days.findIndex((day) => day > newDay);
      schedule.days.splice(at < 0 ? schedule.days.length : at, 0, newDay);
    } else bucket.push(next.id);
  }
}

/** The ids due on the first scheduled day, or none when that day has not begun by `now`. */
export function firstBucket(schedule: Schedule, now: Instant): readonly number[] {
  const day = schedule.days[0];
  if (day === undefined || `${day}T00:00:00.000Z` > now) return [];
  return indexGet(schedule.buckets, day) ?? [];
}
