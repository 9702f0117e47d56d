/**
 * A unit of work over a state: operations read through it (seeing their own writes), allocate ids from
 * the state's counters, and record changes. Nothing touches the state until the caller applies
 * `tx.changes()`; a rejected operation simply drops its transaction, so the state stays exactly as it was.
 */

import { siteEventKey } from '../domain/event-log/keys.js';
import type { EventSpecificData, SiteEvent } from '../domain/event-log/types.js';
import { invoicePostings } from '../domain/ledger/invoice-postings.js';
import type { LedgerTransfer, TransferDraft } from '../domain/ledger/types.js';
import type { SiteSettings } from '../domain/site/config.js';
import { listGet, tableGet, nextId as tableNextId, tableRows } from '../kernel/collection.js';
import { flatText } from '../kernel/compact.js';
import { keepLayoutOf } from '../kernel/kept-layouts.js';
import { addSeconds, calendarDateOf, type Instant } from '../kernel/time.js';
import { type Change, put, remove } from './changes.js';
import { type Counters, createSite, type SiteState, type TableName, type TableRows } from './state.js';

export interface EventInput {
  readonly key: string;
  readonly message: string;
  readonly subscriptionId?: number | null;
  readonly customerId?: number | null;
  readonly data?: EventSpecificData;
  /**
   * What the log keeps of `data` when it keeps less (a part read back from the rows when the record is
   * presented); the caller's copy of the record (`events()`) has `data` whole.
   */
  readonly logged?: EventSpecificData;
}

/**
 * The last day of a period the last transaction asked for, whichever it was: each renewal of a renewal
 * day is a transaction of its own, and all of them ask for the same end, whose day costs a parse and a
 * format of the instant before it. A pure function of the end and the zone, so it holds across states.
 */
let lastDayAsked: { readonly end: Instant; readonly zone: string; readonly date: string } = {
  end: '',
  zone: '',
  date: '',
};

/*
 * A read (a third of a host's traffic or more) writes nothing: the maps, the counters' copy and the log's
 * last instant are made on the first write that needs them, not by every transaction.
 */
export class Transaction {
  readonly #state: SiteState;
  readonly #changes: Change[] = [];
  /**
   * Where in `#changes` the last write of each row this transaction wrote is (its put, or its deletion),
   * by table and id: one entry a row both reads it back from and a later put replaces.
   */
  #written: Map<TableName, Map<number, number>> | undefined;
  #nextIds: Map<TableName, number> | undefined;
  #counters: { -readonly [K in keyof Counters]: number } | undefined;
  readonly #events: SiteEvent[] = [];
  /** Transfers an operation posted itself (money that enters or is granted: no row shows its source). */
  readonly #transfers: TransferDraft[] = [];
  #nextEventId: number;
  /** The `created_at` of the log's newest record (a record is never stamped before it), once read. */
  #lastEventAt: Instant | null | undefined;
  /** Calendar dates in the site zone already computed: a renewal of 1,000 components asks for the same two. */
  #calendarDates: Map<Instant, string> | undefined;
  #lastCalendarDates: Map<Instant, string> | undefined;
  readonly now: Instant;

  constructor(state: SiteState, now: Instant) {
    this.#state = state;
    this.now = now;
    this.#nextEventId = state.events.length + 1;
  }

  get state(): SiteState {
    return this.#state;
  }

  get settings(): SiteSettings {
    return this.#state.settings;
  }

  /** The calendar date (`YYYY-MM-DD`) of an instant in the site's zone. */
  calendarDate(instant: Instant): string {
    this.#calendarDates ??= new Map();
    let date = this.#calendarDates.get(instant);
    if (date === undefined) {
      date = calendarDateOf(instant, this.#state.settings.timeZone);
      this.#calendarDates.set(instant, date);
    }
    return date;
  }

  /** The calendar date of the last second before `end`: the last day of a period that ends at `end`. */
  lastCalendarDate(end: Instant): string {
    const zone = this.#state.settings.timeZone;
    if (end === lastDayAsked.end && zone === lastDayAsked.zone) return lastDayAsked.date;
    this.#lastCalendarDates ??= new Map();
    let date = this.#lastCalendarDates.get(end);
    if (date === undefined) {
      date = this.calendarDate(addSeconds(end, -1));
      this.#lastCalendarDates.set(end, date);
    }
    lastDayAsked = { end, zone, date };
    return date;
  }

  /** The row with an id, as this transaction has left it. */
  get<K extends TableName>(table: K, id: number): TableRows[K] | undefined {
    const at = this.#written?.get(table)?.get(id);
    if (at !== undefined) return this.#rowAt(at) as TableRows[K] | undefined;
    return tableGet(this.#state.tables[table] as never, id) as TableRows[K] | undefined;
  }

  /** Live rows of a table in id order, as this transaction has left them. */
  *rows<K extends TableName>(table: K): Generator<TableRows[K]> {
    const seen = new Set<number>();
    for (const stored of tableRows(this.#state.tables[table] as never) as Iterable<TableRows[K]>) {
      seen.add(stored.id);
      const current = this.get(table, stored.id);
      if (current !== undefined) yield current;
    }
    for (const at of this.#written?.get(table)?.values() ?? []) {
      const row = this.#rowAt(at);
      if (row !== undefined && !seen.has(row.id)) yield row as TableRows[K];
    }
  }

  /** The row the change at a position of `#changes` writes; undefined for a deletion. */
  #rowAt(at: number): TableRows[TableName] | undefined {
    const change = this.#changes[at] as Change;
    return change.type === 'put' ? change.row : undefined;
  }

  #writtenIn(table: TableName): Map<number, number> {
    this.#written ??= new Map();
    let written = this.#written.get(table);
    if (written === undefined) {
      written = new Map();
      this.#written.set(table, written);
    }
    return written;
  }

  /** Reserves the next id of a table. */
  nextId(table: TableName): number {
    this.#nextIds ??= new Map();
    const id = this.#nextIds.get(table) ?? tableNextId(this.#state.tables[table] as never);
    this.#nextIds.set(table, id + 1);
    return id;
  }

  /** Writes a whole row (insert or replace). */
  put<K extends TableName>(table: K, row: TableRows[K]): TableRows[K] {
    // A row written again replaces its earlier put, so it enters the state once, with its last value (a
    // signup writes its subscription three times): same final state, a third of the index updates. A put
    // after a deletion is a change of its own.
    const written = this.#writtenIn(table);
    const at = written.get(row.id);
    if (at !== undefined && (this.#changes[at] as Change).type === 'put') this.#changes[at] = put(table, row);
    else {
      written.set(row.id, this.#changes.length);
      this.#changes.push(put(table, row));
    }
    return row;
  }

  /** Deletes a row. */
  remove(table: TableName, id: number): void {
    this.#writtenIn(table).set(id, this.#changes.length);
    this.#changes.push(remove(table, id));
  }

  /** Takes the next value of a counter. */
  next(counter: keyof Counters): number {
    this.#counters ??= { ...this.#state.counters };
    this.#counters[counter] += 1;
    return this.#counters[counter];
  }

  /** Appends a record to the event log (keys renamed under the new catalog experience: keys.ts). */
  record(input: EventInput): SiteEvent {
    // The log is ordered by time as well as by id, so that a date range is found by binary search: a
    // step caught up late (due before something already recorded) is stamped with the later instant.
    if (this.#lastEventAt === undefined) {
      const events = this.#state.events;
      this.#lastEventAt = listGet(events, events.length - 1)?.created_at ?? null;
    }
    const createdAt =
      this.#lastEventAt !== null && this.#lastEventAt > this.now ? this.#lastEventAt : this.now;
    this.#lastEventAt = createdAt;
    const event: SiteEvent = {
      id: this.#nextEventId,
      key: siteEventKey(input.key, this.#state.settings.newCatalogExperience),
      message: flatText(input.message),
      subscription_id: input.subscriptionId ?? null,
      customer_id: input.customerId ?? null,
      created_at: createdAt,
      event_specific_data: input.data ?? null,
    };
    this.#nextEventId += 1;
    this.#events.push(event);
    // Written out, not spread: the same keys in the same order as `event`, so both share one hidden class.
    const kept: SiteEvent =
      input.logged === undefined
        ? event
        : {
            id: event.id,
            key: event.key,
            message: event.message,
            subscription_id: event.subscription_id,
            customer_id: event.customer_id,
            created_at: event.created_at,
            event_specific_data: input.logged,
          };
    this.#changes.push({ type: 'event', event: kept });
    return event;
  }

  /**
   * Posts a transfer to the books: money received as a prepayment, a service credit granted. Movements on
   * invoices are posted from the rows themselves when the transaction ends (invoice-postings.ts).
   */
  transfer(draft: TransferDraft): void {
    this.#transfers.push(draft);
  }

  /** Adds a raw change (clock, schedule). */
  push(change: Change): void {
    this.#changes.push(change);
  }

  /** The event-log records this transaction appended. */
  events(): readonly SiteEvent[] {
    return this.#events;
  }

  /**
   * The transfers of this transaction, numbered after the books' last: those posted by the operation,
   * then what the invoices it wrote now post (the difference between each row as stored and as left).
   */
  #ledgerChanges(): Change[] {
    const drafts: TransferDraft[] = [...this.#transfers];
    const invoices = this.#written?.get('invoices');
    if (invoices !== undefined) {
      const stored = this.#state.tables.invoices;
      for (const [id, at] of invoices) {
        const before = tableGet(stored, id);
        const after = this.#rowAt(at) as TableRows['invoices'] | undefined;
        if (before !== after) for (const draft of invoicePostings(before, after)) drafts.push(draft);
      }
    }
    let id = this.#state.ledger.length;
    return drafts.map((draft): Change => {
      id += 1;
      // Every field named: a spread into a literal with more keys keeps them out of the object, in a
      // second array of properties (64 bytes more per transfer).
      const transfer: LedgerTransfer = {
        id,
        at: this.now,
        kind: draft.kind,
        debit: draft.debit,
        credit: draft.credit,
        amount: draft.amount,
        subscriptionId: draft.subscriptionId,
        invoiceId: draft.invoiceId,
        source: draft.source,
      };
      return { type: 'transfer', transfer };
    });
  }

  /** Every change, counters last, in a new array the caller may extend. */
  changes(): Change[] {
    const counterChanges: Change[] = [];
    const counters = this.#counters;
    if (counters !== undefined)
      for (const name of Object.keys(counters) as (keyof Counters)[]) {
        if (counters[name] !== this.#state.counters[name]) {
          counterChanges.push({ type: 'counter', name, value: counters[name] });
        }
      }
    const ledger =
      this.#transfers.length > 0 || this.#written?.has('invoices') === true ? this.#ledgerChanges() : [];
    if (ledger.length === 0 && counterChanges.length === 0) return this.#changes.slice();
    return this.#changes.concat(ledger, counterChanges);
  }
}

// Full collections must not take this class's hidden class away between requests (kept-layouts.ts).
keepLayoutOf(new Transaction(createSite(), '2026-01-01T00:00:00.000Z'));
