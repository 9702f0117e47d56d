/**
 * Changes are what `decide` returns and the only thing that alters state. A change carries the decided
 * result (a whole new row, decided before anything is applied), so `evolve` only assigns: it cannot fail and
 * does no billing work. The changes of one request make one new state object, sharing every collection
 * the request did not write.
 */
import { segmentKey } from '../domain/catalog/component-rules.js';
import { appendEvents, indexedEvents } from '../domain/event-log/log-index.js';
import type { SiteEvent } from '../domain/event-log/types.js';
import type { LedgerTransfer } from '../domain/ledger/types.js';
import type { Subscription } from '../domain/subscription/types.js';
import {
  IndexWriter,
  listAppendAllOwned,
  type Mutable,
  type Owned,
  type Table,
  TableWriter,
} from '../kernel/collection.js';
import type { StoredIdSet } from '../kernel/id-set.js';
import { assertNever, invariant } from '../kernel/invariant.js';
import { keepLayoutOf } from '../kernel/kept-layouts.js';
import type { Instant } from '../kernel/time.js';
import { type ListIndexes, type ListIndexName, type ListIndexWriter, relisted } from './list-index.js';
import { rescheduled, type Schedule } from './schedule.js';
import { refiled, type SetIndexName } from './set-index.js';
import {
  type Counters,
  createSite,
  type IndexName,
  type SiteState,
  type TableName,
  type TableRows,
} from './state.js';

type Put<K extends TableName> = { readonly type: 'put'; readonly table: K; readonly row: TableRows[K] };
type Delete<K extends TableName> = { readonly type: 'delete'; readonly table: K; readonly id: number };

/**
 * One entry of a site's event-sourced log: a row written (`put`) or deleted, an event-log record or a
 * ledger transfer appended, a counter set, or the clock moved. `applyChanges(state, changes)` folds them
 * onto a state in order.
 */
export type Change =
  | { [K in TableName]: Put<K> }[TableName]
  | { [K in TableName]: Delete<K> }[TableName]
  | {
      /** An event-log record appended. */
      readonly type: 'event';
      /** The record. */
      readonly event: SiteEvent;
    }
  | {
      /** A ledger transfer appended. */
      readonly type: 'transfer';
      /** The transfer. */
      readonly transfer: LedgerTransfer;
    }
  | {
      /** A counter set. */
      readonly type: 'counter';
      /** Which counter. */
      readonly name: keyof Counters;
      /** Its new value. */
      readonly value: number;
    }
  | {
      /** The site's clock moved. */
      readonly type: 'clock';
      /** The instant it moved to. */
      readonly now: Instant;
    };

/** A change that writes a row: insert when its id is the table's next id, replace otherwise. */
export const put = <K extends TableName>(table: K, row: TableRows[K]): Change =>
  ({ type: 'put', table, row }) as Change;

/** A change that deletes a row. */
export const remove = <K extends TableName>(table: K, id: number): Change =>
  ({ type: 'delete', table, id }) as Change;

type AnyRow = TableRows[TableName];

interface IndexDefinition {
  readonly index: IndexName;
  readonly key: (row: AnyRow) => string | null;
  /**
   * Whether two versions of a row have the same key, told from the fields the key is made of: a renewal
   * rewrites a thousand rows whose keys never change, and building both keys to compare them made four
   * strings a row.
   */
  readonly sameKey?: (previous: AnyRow, next: AnyRow) => boolean;
}

/** Whether two versions of a subscription's component row belong to the same subscription and component. */
const sameRowOf = (previous: AnyRow, next: AnyRow): boolean =>
  'unitBalance' in previous &&
  'unitBalance' in next &&
  previous.subscriptionId === next.subscriptionId &&
  previous.componentId === next.componentId;

/** Which string indexes each table keeps, and the key of a row in each. */
const indexDefinitions: { readonly [K in TableName]: readonly IndexDefinition[] } = {
  productFamilies: [{ index: 'productFamilyHandles', key: (row) => ('handle' in row ? row.handle : null) }],
  products: [{ index: 'productHandles', key: (row) => ('handle' in row ? row.handle : null) }],
  productPricePoints: [
    {
      index: 'productPricePointHandles',
      key: (row) =>
        'productId' in row && 'handle' in row && row.handle ? `${row.productId}/${row.handle}` : null,
    },
  ],
  components: [{ index: 'componentHandles', key: (row) => ('handle' in row ? row.handle : null) }],
  componentPricePoints: [
    {
      index: 'componentPricePointHandles',
      key: (row) =>
        'componentId' in row && 'handle' in row && row.handle ? `${row.componentId}/${row.handle}` : null,
    },
  ],
  segments: [
    {
      index: 'segmentKeys',
      key: (row) =>
        'pricePointId' in row && 'values' in row ? segmentKey(row.pricePointId, row.values) : null,
    },
  ],
  customers: [{ index: 'customerReferences', key: (row) => ('reference' in row ? row.reference : null) }],
  paymentProfiles: [],
  emails: [],
  portals: [
    { index: 'portalCustomers', key: (row) => ('recentInvitations' in row ? String(row.customerId) : null) },
  ],
  paymentUpdateRequests: [
    {
      index: 'paymentUpdateRequestSubscriptions',
      key: (row) => ('recentRequests' in row ? String(row.subscriptionId) : null),
    },
  ],
  oneTimeTokens: [
    { index: 'oneTimeTokenKeys', key: (row) => ('vaultToken' in row && 'token' in row ? row.token : null) },
  ],
  subscriptions: [],
  subscriptionNotes: [],
  metafields: [
    {
      index: 'metafieldNames',
      key: (row) => ('inputType' in row && 'enumValues' in row ? `${row.resourceType}/${row.name}` : null),
    },
  ],
  metadata: [],
  invoices: [],
  proformaInvoices: [],
  creditNotes: [],
  prepayments: [],
  proformaExports: [],
  coupons: [{ index: 'couponCodes', key: (row) => ('discountType' in row ? row.code : null) }],
  couponSubcodes: [
    { index: 'couponSubcodeCodes', key: (row) => ('couponId' in row && 'code' in row ? row.code : null) },
  ],
  featureTemplates: [{ index: 'featureTemplateKeys', key: (row) => ('valueType' in row ? row.key : null) }],
  catalogFeatures: [],
  subscriptionComponents: [
    {
      index: 'subscriptionComponentKeys',
      key: (row) => ('unitBalance' in row ? `${row.subscriptionId}/${row.componentId}` : null),
      sameKey: sameRowOf,
    },
    // Only an insert sets the head (an update keeps the key), so it names the subscription's newest row.
    {
      index: 'subscriptionComponentHeads',
      key: (row) => ('unitBalance' in row ? String(row.subscriptionId) : null),
      sameKey: sameRowOf,
    },
  ],
  allocations: [],
  usages: [],
  eventUsage: [
    {
      index: 'eventUsageKeys',
      key: (row) => ('uniqueValues' in row ? `${row.subscriptionId}/${row.componentId}` : null),
    },
  ],
  subscriptionGroups: [],
  groupMemberships: [
    {
      index: 'groupMembershipSubscriptions',
      key: (row) => ('groupId' in row && 'subscriptionId' in row ? String(row.subscriptionId) : null),
    },
  ],
  reasonCodes: [],
  offers: [{ index: 'offerHandles', key: (row) => ('offerComponents' in row ? row.handle : null) }],
  invoiceExports: [],
  subscriptionExports: [],
};

type WritableCounters = { -readonly [K in keyof Counters]: number };

/**
 * The collections a batch of changes has written so far, computed over the state the batch started from
 * by the kernel's writers, which copy each chunk, index group and leaf at most once per batch however
 * many writes land in it. (Through immer's proxies the same writes cost several times more: every read
 * made a proxy, and a signup's puts spent most of their time in traps and finalization.)
 */
class Written {
  readonly tables = new Map<TableName, TableWriter<AnyRow>>();
  /** Made on the first write to a string index: most steps of a catch-up write none. */
  indexes: Map<IndexName, IndexWriter<number>> | undefined;
  readonly lists = new Map<ListIndexName, ListIndexWriter>();
  readonly sets = new Map<SetIndexName, IndexWriter<StoredIdSet>>();
  schedule: Schedule | undefined;
  counters: WritableCounters | undefined;
  clock: Instant | undefined;

  constructor(
    private readonly base: SiteState,
    private readonly owned: Owned,
  ) {}

  private table(name: TableName): TableWriter<AnyRow> {
    let table = this.tables.get(name);
    if (table === undefined) {
      table = new TableWriter(this.base.tables[name] as Table<AnyRow>, this.owned);
      this.tables.set(name, table);
    }
    return table;
  }

  private index(name: IndexName): IndexWriter<number> {
    this.indexes ??= new Map();
    let index = this.indexes.get(name);
    if (index === undefined) {
      index = new IndexWriter(this.base.indexes[name], this.owned);
      this.indexes.set(name, index);
    }
    return index;
  }

  put(name: TableName, row: AnyRow): void {
    const table = this.table(name);
    const previous = table.get(row.id);
    if (previous === undefined) table.insert(row);
    else table.replace(row.id, row);
    this.reindex(name, previous, row);
    relisted(this.base.listIndexes, this.lists, name, row.id, previous, row, this.owned);
    refiled(this.base.setIndexes, this.sets, name, row.id, previous, row, this.owned);
    if (name === 'subscriptions') {
      const schedule = this.schedule ?? this.base.schedule;
      this.schedule = rescheduled(
        schedule,
        previous as Subscription | undefined,
        row as Subscription,
        this.owned,
      );
    }
  }

  remove(name: TableName, id: number): void {
    const table = this.table(name);
    const previous = table.get(id);
    invariant(previous !== undefined, `row ${id} of ${name} exists`);
    table.replace(id, null);
    if (name === 'subscriptions') {
      const schedule = this.schedule ?? this.base.schedule;
      this.schedule = rescheduled(schedule, previous as Subscription, undefined, this.owned);
    }
    this.reindex(name, previous, undefined);
    relisted(this.base.listIndexes, this.lists, name, id, previous, undefined, this.owned);
    refiled(this.base.setIndexes, this.sets, name, id, previous, undefined, this.owned);
  }

  count(name: keyof Counters, value: number): void {
    // The counters a batch made are its own (see `Owned`): each step of a catch-up sets them in place.
    if (this.counters === undefined) {
      const counters = this.base.counters;
      if (this.owned.has(counters)) this.counters = counters as WritableCounters;
      else {
        this.counters = { ...counters };
        this.owned.add(this.counters);
      }
    }
    this.counters[name] = value;
  }

  private reindex(name: TableName, previous: AnyRow | undefined, next: AnyRow | undefined): void {
    for (const definition of indexDefinitions[name]) {
      if (previous !== undefined && next !== undefined && definition.sameKey?.(previous, next) === true)
        continue;
      const oldKey = previous === undefined ? null : definition.key(previous);
      const newKey = next === undefined ? null : definition.key(next);
      if (oldKey === newKey) continue;
      const index = this.index(definition.index);
      if (oldKey !== null) index.delete(oldKey);
      if (newKey !== null && next !== undefined) index.set(newKey, next.id);
    }
  }

  /**
   * Sets what was written on a state the batch made itself (so nothing outside the batch holds it): its
   * fields, and the field objects the batch made, change in place. Copying the site's thirty-table object
   * and the state for each of a renewal day's steps was much of what applying a step cost.
   */
  assignInPlace(state: Mutable<SiteState>): void {
    const owned = this.owned;
    if (this.tables.size > 0) state.tables = mergedOwned(state.tables, this.tables, owned);
    if (this.indexes !== undefined && this.indexes.size > 0)
      state.indexes = mergedOwned(state.indexes, this.indexes, owned);
    if (this.lists.size > 0)
      state.listIndexes = mergedOwned<ListIndexName, ListIndexes[ListIndexName], ListIndexes>(
        state.listIndexes,
        this.lists,
        owned,
      );
    if (this.sets.size > 0) state.setIndexes = mergedOwned(state.setIndexes, this.sets, owned);
    if (this.schedule !== undefined) state.schedule = this.schedule;
    if (this.counters !== undefined) state.counters = this.counters;
    if (this.clock !== undefined) state.clock = this.clock;
  }
}

// Full collections must not take this class's hidden class away between requests (kept-layouts.ts).
keepLayoutOf(new Written(createSite(), new Set()));

/**
 * `base` with the results of the writers that changed it: `base` itself when the batch made it, else a
 * copy the batch then owns. The results go straight in, with no map of them made first (one a step).
 */
function mergedOwned<K extends string, V, T extends { readonly [Key in K]: V }>(
  base: T,
  writers: ReadonlyMap<K, { result(): V }>,
  owned: Owned,
): T {
  const target: Record<K, V> = owned.has(base) ? (base as Record<K, V>) : { ...base };
  for (const [key, writer] of writers) target[key] = writer.result();
  owned.add(target);
  return target as T;
}

/**
 * Applies changes to a state: every new collection is computed by the kernel's writers (`Written`) and
 * set on one new state object. No changes: the very same state object.
 * @example const next = applyChanges(state, [put('customers', customer)]);
 */
export function applyChanges(state: SiteState, changes: readonly Change[]): SiteState {
  return applyInBatch(state, changes, new Set());
}

/**
 * `applyChanges` as one step of a batch (a catch-up's due steps): what the batch made before (`owned`)
 * is changed in place rather than copied again. The states between the batch's steps must not be kept:
 * a later step may change what they share with it. With `unindexed`, the step's event-log records join
 * the log but not its indexes: they are pushed onto `unindexed` for `withIndexedEvents` to add at the
 * end of the batch (a renewal day's step otherwise regrouped and rewrote the indexes for four records).
 * With `clock`, the clock then moves there, as a clock change after the others would move it.
 */
export function applyInBatch(
  state: SiteState,
  changes: readonly Change[],
  owned: Owned,
  unindexed?: SiteEvent[],
  clock?: Instant,
): SiteState {
  if (changes.length === 0 && clock === undefined) return state;
  const written = new Written(state, owned);
  // Event-log records are appended in one batch (see log-index.ts).
  const records: SiteEvent[] = [];
  const transfers: LedgerTransfer[] = [];
  for (const change of changes) {
    switch (change.type) {
      case 'put':
        written.put(change.table, change.row);
        break;
      case 'delete':
        written.remove(change.table, change.id);
        break;
      case 'event':
        records.push(change.event);
        break;
      case 'transfer':
        transfers.push(change.transfer);
        break;
      case 'counter':
        written.count(change.name, change.value);
        break;
      case 'clock':
        written.clock = change.now;
        break;
      default:
        assertNever(change);
    }
  }
  if (clock !== undefined) written.clock = clock;
  // A state this batch made is changed in place; the first of a batch, or a request's, is a new object.
  const next: Mutable<SiteState> = owned.has(state) ? state : { ...state };
  owned.add(next);
  written.assignInPlace(next);
  // The books, like the log, grow by one batch per request.
  if (transfers.length > 0) next.ledger = listAppendAllOwned(next.ledger, transfers, owned);
  if (records.length > 0) {
    if (unindexed === undefined) {
      const appended = appendEvents(next.events, next.eventIndex, records, owned);
      next.events = appended.events;
      next.eventIndex = appended.eventIndex;
    } else {
      next.events = listAppendAllOwned(next.events, records, owned);
      for (const record of records) unindexed.push(record);
    }
  }
  return next;
}

/**
 * A batch's state with the records `applyInBatch` left out of the log's indexes added to them: the same
 * indexes as if each step had added its own. The state is changed in place when the batch made it.
 */
export function withIndexedEvents(state: SiteState, records: readonly SiteEvent[], owned: Owned): SiteState {
  if (records.length === 0) return state;
  const next: Mutable<SiteState> = owned.has(state) ? state : { ...state };
  owned.add(next);
  next.eventIndex = indexedEvents(state.eventIndex, records, owned);
  return next;
}
