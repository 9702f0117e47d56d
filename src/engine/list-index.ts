/**
 * Indexes from one key to several rows: a subscription's open invoices, a consolidated invoice's child
 * invoices, the groups a customer pays for. `evolve` keeps each list in step with every write of its
 * table (as `reindex` does for one-to-one indexes), so these questions never scan a table. Each key holds
 * an `IdSet` (a bare id while it holds one: `StoredIdSet`), so a row joining or leaving a key copies one leaf, however many rows the key holds (a
 * customer with 100,000 subscriptions).
 */
import {
  emptyIndex,
  IndexWriter,
  indexGet,
  type Owned,
  type ShardedIndex,
  type Table,
  tableGet,
  tableRows,
  writerResults,
} from '../kernel/collection.js';
import {
  idSetAdd,
  idSetDelete,
  idSetToArray,
  idSetValues,
  loadedIdSet,
  type StoredIdSet,
  storedIdSet,
} from '../kernel/id-set.js';
import { invariant } from '../kernel/invariant.js';
import type { TableName, TableRows, Tables } from './tables.js';

export interface ListIndexes {
  /** Subscription ids (as text) to the ids of their invoices in status `open`. */
  readonly openInvoiceSubscriptions: ShardedIndex<StoredIdSet>;
  /** Parent (consolidated) invoice ids (as text) to their child invoice ids, in creation order. */
  readonly childInvoiceParents: ShardedIndex<StoredIdSet>;
  /** Customer ids (as text) to the ids of the subscription groups they pay for, oldest first. */
  readonly groupCustomers: ShardedIndex<StoredIdSet>;
  /** Subscription ids (as text) to the ids of all their invoices (cancel, reactivation, invoice lists). */
  readonly subscriptionInvoices: ShardedIndex<StoredIdSet>;
  /** Customer ids (as text) to the ids of their subscriptions. */
  readonly customerSubscriptions: ShardedIndex<StoredIdSet>;
  /** Payment profile ids (as text) to the ids of the subscriptions paying with them. */
  readonly paymentProfileSubscriptions: ShardedIndex<StoredIdSet>;
  /** Customer ids (as text) to the ids of their child customers. */
  readonly customerChildren: ShardedIndex<StoredIdSet>;
  /** Customer ids (as text) to the ids of their payment profiles. */
  readonly customerPaymentProfiles: ShardedIndex<StoredIdSet>;
  /** Subscription references to the ids of the subscriptions that carry them (`/subscriptions/lookup.json`). */
  readonly subscriptionReferences: ShardedIndex<StoredIdSet>;
  /** Subscription ids (as text) to the ids of their notes. */
  readonly subscriptionNotes: ShardedIndex<StoredIdSet>;
  /** Subscription ids (as text) to the ids of their prepayments, oldest first. */
  readonly subscriptionPrepayments: ShardedIndex<StoredIdSet>;
  /** Subscription ids (as text) to the ids of their credit notes, oldest first. */
  readonly subscriptionCreditNotes: ShardedIndex<StoredIdSet>;
}

export type ListIndexName = keyof ListIndexes;

export const emptyListIndexes = (): ListIndexes => ({
  openInvoiceSubscriptions: emptyIndex(),
  childInvoiceParents: emptyIndex(),
  groupCustomers: emptyIndex(),
  subscriptionInvoices: emptyIndex(),
  customerSubscriptions: emptyIndex(),
  paymentProfileSubscriptions: emptyIndex(),
  customerChildren: emptyIndex(),
  customerPaymentProfiles: emptyIndex(),
  subscriptionReferences: emptyIndex(),
  subscriptionNotes: emptyIndex(),
  subscriptionPrepayments: emptyIndex(),
  subscriptionCreditNotes: emptyIndex(),
});

export type AnyRow = TableRows[TableName];

const definitions: { readonly [K in TableName]?: readonly KeyDefinition<ListIndexName>[] } = {
  invoices: [
    {
      index: 'openInvoiceSubscriptions',
      key: (row) =>
        'consolidationLevel' in row && row.status === 'open' ? String(row.subscriptionId) : null,
    },
    {
      index: 'childInvoiceParents',
      key: (row) =>
        'consolidationLevel' in row && row.parentInvoiceId !== null ? String(row.parentInvoiceId) : null,
    },
    {
      index: 'subscriptionInvoices',
      key: (row) => ('consolidationLevel' in row ? String(row.subscriptionId) : null),
    },
  ],
  subscriptions: [
    {
      index: 'customerSubscriptions',
      key: (row) => ('billingAnchor' in row ? String(row.customerId) : null),
    },
    {
      index: 'paymentProfileSubscriptions',
      key: (row) =>
        'billingAnchor' in row && row.paymentProfileId !== null ? String(row.paymentProfileId) : null,
    },
    {
      index: 'subscriptionReferences',
      key: (row) => ('billingAnchor' in row && row.reference !== null ? row.reference : null),
    },
  ],
  subscriptionNotes: [
    { index: 'subscriptionNotes', key: (row) => ('sticky' in row ? String(row.subscriptionId) : null) },
  ],
  customers: [
    {
      index: 'customerChildren',
      key: (row) => ('parentId' in row && row.parentId !== null ? String(row.parentId) : null),
    },
  ],
  paymentProfiles: [
    {
      index: 'customerPaymentProfiles',
      key: (row) => ('vaultToken' in row && 'customerId' in row ? String(row.customerId) : null),
    },
  ],
  prepayments: [
    {
      index: 'subscriptionPrepayments',
      key: (row) => ('refunded' in row && 'external' in row ? String(row.subscriptionId) : null),
    },
  ],
  creditNotes: [
    {
      index: 'subscriptionCreditNotes',
      key: (row) => ('applications' in row && 'reversed' in row ? String(row.subscriptionId) : null),
    },
  ],
  subscriptionGroups: [
    { index: 'groupCustomers', key: (row) => ('memberIds' in row ? String(row.customerId) : null) },
  ],
};

/** What an index keeps of a row: which index, and the row's key in it (null: none). */
export interface KeyDefinition<N extends string> {
  readonly index: N;
  readonly key: (row: AnyRow) => string | null;
}

/** Indexes whose keys each hold an `IdSet` of row ids (the list indexes here, the set indexes). */
export type IdSetIndexes<N extends string> = { readonly [K in N]: ShardedIndex<StoredIdSet> };

/**
 * Moves a row's id between keys in each index `definitions` name, in `written` (falling back to
 * `indexes`), after the row was written or deleted; a key left with no id goes. Nothing when the row's
 * key did not change.
 */
export function rekeyed<N extends string>(
  definitions: readonly KeyDefinition<N>[],
  indexes: IdSetIndexes<N>,
  written: Map<N, IndexWriter<StoredIdSet>>,
  id: number,
  previous: AnyRow | undefined,
  next: AnyRow | undefined,
  owned: Owned,
): void {
  for (const definition of definitions) {
    const oldKey = previous === undefined ? null : definition.key(previous);
    const newKey = next === undefined ? null : definition.key(next);
    if (oldKey === newKey) continue;
    let index = written.get(definition.index);
    if (index === undefined) {
      index = new IndexWriter(indexes[definition.index], owned);
      written.set(definition.index, index);
    }
    if (oldKey !== null) withoutId(index, oldKey, id, owned);
    if (newKey !== null) withId(index, newKey, id, owned);
  }
}

/*
 * Most keys hold one id, stored as that number: adding a row's id to an absent key, or taking it from a
 * key that holds it alone, needs no set. (Through the sets, each such write built a tree of one id
 * with a node per level, read its only id back through a generator, and dropped it.)
 */

function withId(index: IndexWriter<StoredIdSet>, key: string, id: number, owned: Owned): void {
  const stored = index.get(key);
  if (stored === undefined || stored === id) {
    invariant(Number.isSafeInteger(id) && id >= 0, `id ${id} is a non-negative safe integer`);
    index.set(key, id);
  } else index.set(key, storedIdSet(idSetAdd(loadedIdSet(stored), id, owned)));
}

function withoutId(index: IndexWriter<StoredIdSet>, key: string, id: number, owned: Owned): void {
  const stored = index.get(key);
  if (stored === undefined || stored === id) {
    index.delete(key);
    return;
  }
  const remaining = idSetDelete(loadedIdSet(stored), id, owned);
  if (remaining.size === 0) index.delete(key);
  else index.set(key, storedIdSet(remaining));
}

/**
 * Indexes built from a state's tables, every row filed under its keys (for a state stored before they
 * existed, or in another shape).
 */
export function rebuiltIndexes<N extends string, I extends IdSetIndexes<N>>(
  state: { readonly tables: Tables },
  definitionsOf: { readonly [T in TableName]?: readonly KeyDefinition<N>[] },
  empty: I,
): I {
  const written = new Map<N, IndexWriter<StoredIdSet>>();
  const owned: Owned = new Set();
  for (const table of Object.keys(definitionsOf) as TableName[]) {
    for (const row of tableRows(state.tables[table] as Table<AnyRow>))
      rekeyed(definitionsOf[table] ?? [], empty, written, row.id, undefined, row, owned);
  }
  return { ...empty, ...Object.fromEntries(writerResults(written)) };
}

/** The list indexes `written` with a row moved between lists after it was written or deleted. */
export function relisted(
  indexes: ListIndexes,
  written: Map<ListIndexName, IndexWriter<StoredIdSet>>,
  table: TableName,
  id: number,
  previous: AnyRow | undefined,
  next: AnyRow | undefined,
  owned: Owned,
): void {
  rekeyed(definitions[table] ?? [], indexes, written, id, previous, next, owned);
}

/** The ids listed under a key, in id order (none when the key is absent). */
export const listed = (indexes: ListIndexes, name: ListIndexName, key: string | number): readonly number[] =>
  idSetToArray(loadedIdSet(indexGet(indexes[name], String(key))));

/** The rows of `table` listed under a key in a state, in id order. */
export function listedRows<K extends TableName>(
  state: { readonly tables: Tables; readonly listIndexes: ListIndexes },
  name: ListIndexName,
  key: string | number,
  table: K,
): TableRows[K][] {
  const rows: TableRows[K][] = [];
  for (const id of idSetValues(loadedIdSet(indexGet(state.listIndexes[name], String(key))))) {
    const row = tableGet(state.tables[table] as Table<TableRows[K]>, id);
    if (row !== undefined) rows.push(row);
  }
  return rows;
}

/**
 * The list indexes of a state built from its tables (for a state stored before they held id sets, whose
 * lists were arrays).
 */
export const rebuiltListIndexes = (state: { readonly tables: Tables }): ListIndexes =>
  rebuiltIndexes(state, definitions, emptyListIndexes());
