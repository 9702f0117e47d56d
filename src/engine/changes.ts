/**
 * Changes are what `decide` returns and the only thing that alters state. A change carries the decided
 * result (a whole new row, computed outside any draft), so `evolve` only assigns: it cannot fail and
 * does no billing work. The changes of one request go through one immer `produce`.
 */
import { type Draft, Immer } from 'immer';
import { segmentKey } from '../domain/catalog/component-rules.js';
import { appendEvents, indexEventInPlace } from '../domain/event-log/log-index.js';
import type { SiteEvent } from '../domain/event-log/types.js';
import type { Subscription } from '../domain/subscription/types.js';
import {
  indexDeleteInPlace,
  indexSetInPlace,
  listPushInPlace,
  type MutableChunkedList,
  type MutableShardedIndex,
  type MutableTable,
  type Table,
  tableGet,
  tableInsertInPlace,
  tableOverwriteInPlace,
} from '../kernel/collection.js';
import { assertNever, invariant } from '../kernel/invariant.js';
import type { Instant } from '../kernel/time.js';
import { type MutableListIndexes, relist } from './list-index.js';
import { type MutableSchedule, reschedule } from './schedule.js';
import type { Counters, IndexName, SiteState, TableName, TableRows } from './state.js';

type Put<K extends TableName> = { readonly type: 'put'; readonly table: K; readonly row: TableRows[K] };
type Delete<K extends TableName> = { readonly type: 'delete'; readonly table: K; readonly id: number };

export type Change =
  | { [K in TableName]: Put<K> }[TableName]
  | { [K in TableName]: Delete<K> }[TableName]
  | { readonly type: 'event'; readonly event: SiteEvent }
  | { readonly type: 'counter'; readonly name: keyof Counters; readonly value: number }
  | { readonly type: 'clock'; readonly now: Instant };

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
}

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
  invoices: [],
  proformaInvoices: [],
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
    },
    // Only an insert sets the head (an update keeps the key), so it names the subscription's newest row.
    {
      index: 'subscriptionComponentHeads',
      key: (row) => ('unitBalance' in row ? String(row.subscriptionId) : null),
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
};

// Freezing copies of 1,000-row chunks on every change costs about ten times the change itself (measured in
// benchmarks/collection.bench.ts); state is immutable by contract and by its readonly types instead.
const immer = new Immer({ autoFreeze: false });

/**
 * Applies changes to a state in one `produce`. No changes: the very same state object.
 * @example const next = applyChanges(state, [put('customers', customer)]);
 */
export function applyChanges(state: SiteState, changes: readonly Change[]): SiteState {
  if (changes.length === 0) return state;
  // Event-log records are appended in one batch after the draft (see log-index.ts): through immer's
  // array proxies each record would cost about 15 µs.
  const records: SiteEvent[] = [];
  const before = new RowsBefore(state);
  const next = immer.produce(state, (draft) => {
    for (const change of changes) {
      if (change.type === 'event') records.push(change.event);
      else evolve(draft, change, before);
    }
  });
  return records.length === 0 ? next : { ...next, ...appendEvents(next.events, next.eventIndex, records) };
}

/**
 * The row each write replaces, read from the state a `produce` started from and the rows written since,
 * never through the draft: a row read through the draft becomes a proxy, every index update then reads it
 * through traps, and finalizing the overwritten proxy scans its whole 1,000-row chunk (a fifth of a replay
 * before this).
 */
class RowsBefore {
  readonly #written = new Map<TableName, Map<number, AnyRow | undefined>>();
  constructor(private readonly base: SiteState) {}

  get(table: TableName, id: number): AnyRow | undefined {
    const written = this.#written.get(table);
    if (written?.has(id)) return written.get(id);
    return tableGet(this.base.tables[table] as Table<AnyRow>, id);
  }

  set(table: TableName, id: number, row: AnyRow | undefined): void {
    let written = this.#written.get(table);
    if (written === undefined) {
      written = new Map();
      this.#written.set(table, written);
    }
    written.set(id, row);
  }
}

/**
 * Freezes what a row holds, not the row: immer's finalization walks every nested object of a new row (an
 * invoice of 100,000 lines is millions of them) looking for drafts it cannot contain, and stops at a frozen
 * one, so freezing one level down leaves it the row's own fields to look at. The row itself stays unfrozen
 * because V8 cannot generalize a field of a frozen object in place: rows whose fields vary in type (null
 * or text) each got a hidden class of their own (323 for 775 customers of a replay), and every read of
 * them went megamorphic, five times slower.
 */
function freezeNested(row: object): void {
  for (const value of Object.values(row))
    if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) Object.freeze(value);
}

/** The only code that changes state. */
function evolve(draft: Draft<SiteState>, change: Change, before: RowsBefore): void {
  switch (change.type) {
    case 'put': {
      const table = draft.tables[change.table] as unknown as MutableTable<AnyRow>;
      const previous = before.get(change.table, change.row.id);
      before.set(change.table, change.row.id, change.row);
      freezeNested(change.row);
      if (previous === undefined) tableInsertInPlace(table, change.row);
      else tableOverwriteInPlace(table, change.row.id, change.row);
      reindex(draft, change.table, previous, change.row);
      relist(draft.listIndexes as MutableListIndexes, change.table, change.row.id, previous, change.row);
      if (change.table === 'subscriptions') {
        reschedule(
          draft.schedule as unknown as MutableSchedule,
          previous as Subscription | undefined,
          change.row as Subscription,
        );
      }
      return;
    }
    case 'delete': {
      const table = draft.tables[change.table] as unknown as MutableTable<AnyRow>;
      const previous = before.get(change.table, change.id);
      invariant(previous !== undefined, `row ${change.id} of ${change.table} exists`);
      before.set(change.table, change.id, undefined);
      tableOverwriteInPlace(table, change.id, null);
      reindex(draft, change.table, previous, undefined);
      relist(draft.listIndexes as MutableListIndexes, change.table, change.id, previous, undefined);
      return;
    }
    case 'event':
      Object.freeze(change.event);
      listPushInPlace(draft.events as unknown as MutableChunkedList<SiteEvent>, change.event);
      indexEventInPlace(draft.eventIndex, change.event);
      return;
    case 'counter':
      (draft.counters as { -readonly [K in keyof Counters]: number })[change.name] = change.value;
      return;
    case 'clock':
      draft.clock = change.now;
      return;
    default:
      assertNever(change);
  }
}

function reindex(
  draft: Draft<SiteState>,
  table: TableName,
  previous: AnyRow | undefined,
  next: AnyRow | undefined,
) {
  for (const definition of indexDefinitions[table]) {
    const oldKey = previous === undefined ? null : definition.key(previous);
    const newKey = next === undefined ? null : definition.key(next);
    if (oldKey === newKey) continue;
    const index = draft.indexes[definition.index] as unknown as MutableShardedIndex<number>;
    if (oldKey !== null) indexDeleteInPlace(index, oldKey);
    if (newKey !== null && next !== undefined) indexSetInPlace(index, newKey, next.id);
  }
}
