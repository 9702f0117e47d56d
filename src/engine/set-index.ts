/**
 * Indexes from a key that may hold most of a table to the ids of its rows: the subscriptions in a state,
 * the invoices in a status, a group's invoices, a component's price points. Each key's ids are an
 * `IdSet` (kernel/id-set), so a write copies one leaf of at most 256 ids and a short branch per
 * level rather than every id of the key, and a listing pages through the ids in id order by their counts
 * rather than scanning the table. `evolve` keeps each set in step with every write of its table, as it
 * does the one-to-one indexes and the list indexes (list-index.ts, whose keys are rows: a customer, a
 * subscription).
 */
import {
  emptyIndex,
  type IndexWriter,
  indexGet,
  type Owned,
  type ShardedIndex,
  type Table,
  tableGet,
} from '../kernel/collection.js';
import { type IdSet, idSetsValues, loadedIdSet, type StoredIdSet } from '../kernel/id-set.js';
import { type AnyRow, type KeyDefinition, rebuiltIndexes, rekeyed } from './list-index.js';
import type { TableName, TableRows, Tables } from './tables.js';

export interface SetIndexes {
  /** Subscription states to the ids of the subscriptions in them. */
  readonly subscriptionStates: ShardedIndex<StoredIdSet>;
  /** Invoice statuses to the ids of the invoices in them. */
  readonly invoiceStatuses: ShardedIndex<StoredIdSet>;
  /** Subscription group ids (as text) to the ids of the invoices of the group. */
  readonly groupInvoices: ShardedIndex<StoredIdSet>;
  /** Component ids (as text) to the ids of their unarchived price points; `${id}/archived` to the rest. */
  readonly componentPricePoints: ShardedIndex<StoredIdSet>;
}

export type SetIndexName = keyof SetIndexes;

export const emptySetIndexes = (): SetIndexes => ({
  subscriptionStates: emptyIndex(),
  invoiceStatuses: emptyIndex(),
  groupInvoices: emptyIndex(),
  componentPricePoints: emptyIndex(),
});

/** The key of a component's price points, unarchived or archived. */
export const pricePointKey = (componentId: number, archived: boolean): string =>
  archived ? `${componentId}/archived` : String(componentId);

interface SetDefinition<K extends TableName> {
  readonly index: SetIndexName;
  readonly key: (row: TableRows[K]) => string | null;
}

const definitions: { readonly [K in TableName]?: readonly SetDefinition<K>[] } = {
  subscriptions: [{ index: 'subscriptionStates', key: (row) => row.state }],
  invoices: [
    { index: 'invoiceStatuses', key: (row) => row.status },
    {
      index: 'groupInvoices',
      key: (row) => (row.subscriptionGroupId === null ? null : String(row.subscriptionGroupId)),
    },
  ],
  componentPricePoints: [
    {
      index: 'componentPricePoints',
      key: (row) => pricePointKey(row.componentId, row.archivedAt !== null),
    },
  ],
};

/** The definitions as `rekeyed` reads them: each key function is only ever called with a row of its table. */
const keyDefinitions = definitions as { readonly [T in TableName]?: readonly KeyDefinition<SetIndexName>[] };

/** The set indexes `written` with a row moved between sets after it was written or deleted. */
export function refiled(
  indexes: SetIndexes,
  written: Map<SetIndexName, IndexWriter<StoredIdSet>>,
  table: TableName,
  id: number,
  previous: AnyRow | undefined,
  next: AnyRow | undefined,
  owned: Owned,
): void {
  // Most tables keep no set (a renewal's thousand component rows): nothing made or walked for them.
  const tableDefinitions = keyDefinitions[table];
  if (tableDefinitions !== undefined) rekeyed(tableDefinitions, indexes, written, id, previous, next, owned);
}

/** The ids under a key (the empty set when the key is absent). */
export const setOf = (indexes: SetIndexes, name: SetIndexName, key: string | number): IdSet =>
  loadedIdSet(indexGet(indexes[name], String(key)));

/**
 * The rows of `table` under any of `keys` (each counted once), in id order, newest first when
 * `descending`, from the `skip`-th on: found through the counts of the sets, so a page costs the same
 * wherever it starts.
 */
export function* setRows<K extends TableName>(
  state: { readonly tables: Tables; readonly setIndexes: SetIndexes },
  name: SetIndexName,
  keys: readonly string[],
  table: K,
  skip: number,
  descending: boolean,
): Generator<TableRows[K]> {
  const sets = [...new Set(keys)].map((key) => setOf(state.setIndexes, name, key));
  const rows = state.tables[table] as Table<TableRows[K]>;
  for (const id of idSetsValues(sets, skip, descending)) {
    const row = tableGet(rows, id);
    if (row !== undefined) yield row;
  }
}

/** One page (from 1) of `setRows`. */
export function pageOfSet<K extends TableName>(
  state: { readonly tables: Tables; readonly setIndexes: SetIndexes },
  name: SetIndexName,
  keys: readonly string[],
  table: K,
  page: { readonly page: number; readonly perPage: number },
  descending: boolean,
): TableRows[K][] {
  const rows: TableRows[K][] = [];
  if (keys.length === 0) return rows;
  for (const row of setRows(state, name, keys, table, (page.page - 1) * page.perPage, descending)) {
    rows.push(row);
    if (rows.length >= page.perPage) break;
  }
  return rows;
}

/** The set indexes of a state built from its tables (for a state stored before they existed). */
export const rebuiltSetIndexes = (state: { readonly tables: Tables }): SetIndexes =>
  rebuiltIndexes(state, keyDefinitions, emptySetIndexes());
