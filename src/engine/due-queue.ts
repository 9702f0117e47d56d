/**
 * The order in which a catch-up performs what is due on the first scheduled day: earliest instant
 * first, ties in the order the subscriptions joined the day. The day's bucket is read once; after each
 * step only the entries the step appended and the subscriptions it wrote are looked at again, so a day
 * with k things due costs at most O(k log k), not k reads of the whole bucket.
 *
 * Entries read in bucket order are mostly already in due order (a renewal day: one instant, positions
 * ascending), so they queue in a run taken from the front, and only an entry that would break the run's
 * order goes into a heap: popping the run costs nothing, where a heap of a whole site's day walked its
 * height (17 levels at 100,000) through entries spread over the heap for every step.
 */
import { dueAt } from '../domain/subscription/schedule.js';
import type { Subscription } from '../domain/subscription/types.js';
import { indexGet, tableGet } from '../kernel/collection.js';
import { keepLayoutOf } from '../kernel/kept-layouts.js';
import type { Instant } from '../kernel/time.js';
import type { Change } from './changes.js';
import { type DueEntry, dayOf, firstDueDay, readBucket } from './schedule.js';
import type { SiteState } from './state.js';

const before = (a: DueEntry, b: DueEntry): boolean =>
  a.at < b.at || (a.at === b.at && a.position < b.position);

/** A binary min-heap of entries. */
class EntryHeap {
  readonly #items: DueEntry[] = [];

  get top(): DueEntry | undefined {
    return this.#items[0];
  }

  push(entry: DueEntry): void {
    const items = this.#items;
    let index = items.push(entry) - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      const above = items[parent] as DueEntry;
      if (!before(entry, above)) break;
      items[index] = above;
      index = parent;
    }
    items[index] = entry;
  }

  pop(): void {
    const items = this.#items;
    const last = items.pop();
    if (last === undefined || items.length === 0) return;
    let index = 0;
    for (;;) {
      const left = 2 * index + 1;
      if (left >= items.length) break;
      const right = left + 1;
      const child =
        right < items.length && before(items[right] as DueEntry, items[left] as DueEntry) ? right : left;
      const below = items[child] as DueEntry;
      if (!before(below, last)) break;
      items[index] = below;
      index = child;
    }
    items[index] = last;
  }
}

export class DueQueue {
  #day: string | null = null;
  #serial = 0;
  /** Bucket entries read so far. */
  #read = 0;
  /** Each id's last position in the day's bucket. */
  #latest = new Map<number, number>();
  /** Entries in due order from `#next` on; `#run[#next]` is the run's first. */
  #run: DueEntry[] = [];
  #next = 0;
  /** Entries that came out of order. */
  #heap = new EntryHeap();
  /** Subscriptions written since the last look. */
  #written: number[] = [];

  /** The subscription due first by `now`, on the first scheduled day. */
  earliest(state: SiteState, now: Instant): { at: Instant; subscription: Subscription } | null {
    const day = firstDueDay(state.schedule, now);
    if (day === null) return null;
    const bucket = indexGet(state.schedule.buckets, day);
    if (bucket === undefined) return null;
    const subscriptions = state.tables.subscriptions;
    if (day !== this.#day || bucket.serial !== this.#serial) {
      this.#day = day;
      this.#serial = bucket.serial;
      this.#read = 0;
      this.#latest = new Map();
      this.#run = [];
      this.#next = 0;
      this.#heap = new EntryHeap();
      this.#written = [];
    }
    // Nothing joined the bucket since the last look (each step of a renewal day): nothing to read.
    if (this.#read < bucket.ids.length) {
      for (const entry of readBucket(bucket, day, subscriptions, this.#read, this.#latest)) this.#add(entry);
      this.#read = bucket.ids.length;
    }
    if (this.#written.length > 0) {
      for (const id of this.#written) {
        const position = this.#latest.get(id);
        const subscription = tableGet(subscriptions, id);
        const at = subscription === undefined ? null : dueAt(subscription);
        if (position !== undefined && at !== null && dayOf(at) === day) this.#add({ at, position, id });
      }
      this.#written.length = 0;
    }
    for (let top = this.#top(); top !== undefined; top = this.#top()) {
      const subscription = tableGet(subscriptions, top.id);
      if (
        subscription !== undefined &&
        this.#latest.get(top.id) === top.position &&
        dueAt(subscription) === top.at
      )
        return { at: top.at, subscription };
      this.#pop(top);
    }
    return null;
  }

  /** Queues an entry: at the run's end when it comes after the run's last, else in the heap. */
  #add(entry: DueEntry): void {
    const run = this.#run;
    if (this.#next === run.length) {
      // The run is used up: it starts again from this entry.
      run.length = 0;
      this.#next = 0;
      run.push(entry);
    } else if (before(entry, run[run.length - 1] as DueEntry)) this.#heap.push(entry);
    else run.push(entry);
  }

  /**
   * The first entry of the run or of the heap, whichever is due first. Two entries neither before the
   * other are the same entry (one instant, one position in the bucket), so which of them comes first
   * makes no difference.
   */
  #top(): DueEntry | undefined {
    const first = this.#run[this.#next];
    const top = this.#heap.top;
    if (first === undefined) return top;
    return top !== undefined && before(top, first) ? top : first;
  }

  /** Takes out the entry `#top` gave. */
  #pop(entry: DueEntry): void {
    if (this.#run[this.#next] === entry) this.#next += 1;
    else this.#heap.pop();
  }

  /** Notes the subscriptions a step wrote, before its changes are applied. */
  noteChanges(changes: readonly Change[]): void {
    for (const change of changes)
      if (change.type === 'put' && change.table === 'subscriptions') this.#written.push(change.row.id);
  }
}

// Full collections must not take this class's hidden class away between requests (kept-layouts.ts).
keepLayoutOf(new DueQueue());
