/**
 * Indexes from one key to several rows: a subscription's open invoices, a consolidated invoice's child
 * invoices, the groups a customer pays for. `evolve` keeps each list in step with every write of its
 * table (as `reindex` does for one-to-one indexes), so these questions never scan a table. Each key holds
 * an `IdSet` (a bare id while it holds one: `StoredIdSet`), so a row joining or leaving a key copies one
 * slot's chunk and a path of the set, however many rows the key holds (a customer with 100,000
 * subscriptions).
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
import { emptyIdKeyed, type IdKeyedIndex, IdKeyedWriter, idKeyedGet } from '../kernel/id-keyed.js';
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

/**
 * The lists every subscription, customer or payment profile has a key in are `IdKeyedIndex`es (a slot
 * per id: a sharded key costs about fifteen times as much); the lists few rows have a key in (notes,
 * child invoices, groups, references) are sharded indexes keyed by text, so that one key at a high id
 * costs one key, not a slot for every id below it.
 */
export interface ListIndexes {
  /** Subscription ids to the ids of their invoices in status `open`. */
  readonly openInvoiceSubscriptions: ShardedIndex<StoredIdSet>;
  /** Parent (consolidated) invoice ids to their child invoice ids, in creation order. */
  readonly childInvoiceParents: ShardedIndex<StoredIdSet>;
  /** Customer ids to the ids of the subscription groups they pay for, oldest first. */
  readonly groupCustomers: ShardedIndex<StoredIdSet>;
  /** Subscription ids to the ids of all their invoices (cancel, reactivation, invoice lists). */
  readonly subscriptionInvoices: IdKeyedIndex<StoredIdSet>;
  /** Customer ids to the ids of their subscriptions. */
  readonly customerSubscriptions: IdKeyedIndex<StoredIdSet>;
  /** Payment profile ids to the ids of the subscriptions paying with them. */
  readonly paymentProfileSubscriptions: IdKeyedIndex<StoredIdSet>;
  /** Customer ids to the ids of their child customers. */
  readonly customerChildren: ShardedIndex<StoredIdSet>;
  /** Customer ids to the ids of their payment profiles. */
  readonly customerPaymentProfiles: IdKeyedIndex<StoredIdSet>;
  /** Subscription references to the ids of the subscriptions that carry them (`/subscriptions/lookup.json`). */
  readonly subscriptionReferences: ShardedIndex<StoredIdSet>;
  /** Subscription ids to the ids of their notes. */
  readonly subscriptionNotes: ShardedIndex<StoredIdSet>;
  /** Subscription ids to the ids of their prepayments, oldest first. */
  readonly subscriptionPrepayments: ShardedIndex<StoredIdSet>;
  /** Subscription ids to the ids of their credit notes, oldest first. */
  readonly subscriptionCreditNotes: ShardedIndex<StoredIdSet>;
  /** Resource types to the ids of their metafields. */
  readonly resourceTypeMetafields: ShardedIndex<StoredIdSet>;
  /** Keyed `${resourceType}/${resourceId}`: the ids of that resource's metadata rows, removed ones too. */
  readonly resourceMetadata: ShardedIndex<StoredIdSet>;
  /** Metafield ids to the ids of the metadata rows in that field, removed ones too. */
  readonly metafieldMetadata: ShardedIndex<StoredIdSet>;
  /** Resource types to the ids of their metadata rows that hold a value, oldest first. */
  readonly resourceTypeMetadata: ShardedIndex<StoredIdSet>;
  /** Resource types to the ids of their removed metadata rows, oldest first. */
  readonly resourceTypeRemovedMetadata: ShardedIndex<StoredIdSet>;
}

export type ListIndexName = keyof ListIndexes;

/** The list indexes keyed by row ids, a slot per id. */
export type IdListName =
  | 'subscriptionInvoices'
  | 'customerSubscriptions'
  | 'paymentProfileSubscriptions'
  | 'customerPaymentProfiles';

const ID_LISTS: ReadonlySet<ListIndexName> = new Set<IdListName>([
  'subscriptionInvoices',
  'customerSubscriptions',
  'paymentProfileSubscriptions',
  'customerPaymentProfiles',
]);

const isIdList = (name: ListIndexName): name is IdListName => ID_LISTS.has(name);

/** The list indexes keyed by text. */
export type TextListName = Exclude<ListIndexName, IdListName>;

export const emptyListIndexes = (): ListIndexes => ({
  openInvoiceSubscriptions: emptyIndex(),
  childInvoiceParents: emptyIndex(),
  groupCustomers: emptyIndex(),
  subscriptionInvoices: emptyIdKeyed(),
  customerSubscriptions: emptyIdKeyed(),
  paymentProfileSubscriptions: emptyIdKeyed(),
  customerChildren: emptyIndex(),
  customerPaymentProfiles: emptyIdKeyed(),
  subscriptionReferences: emptyIndex(),
  subscriptionNotes: emptyIndex(),
  subscriptionPrepayments: emptyIndex(),
  subscriptionCreditNotes: emptyIndex(),
  resourceTypeMetafields: emptyIndex(),
  resourceMetadata: emptyIndex(),
  metafieldMetadata: emptyIndex(),
  resourceTypeMetadata: emptyIndex(),
  resourceTypeRemovedMetadata: emptyIndex(),
});

/**
 * Whether a loaded state's list indexes have the shape this version keeps: one saved while every list
 * was a sharded index needs them rebuilt from its tables.
 */
export function hasCurrentListShape(indexes: ListIndexes): boolean {
  return Object.entries(indexes).every(
    ([name, index]: [string, object]) => isIdList(name as ListIndexName) !== Object.hasOwn(index, 'groups'),
  );
}

export type AnyRow = TableRows[TableName];

const definitions: { readonly [K in TableName]?: readonly ListKeyDefinition[] } = {
  invoices: [
    {
      index: 'openInvoiceSubscriptions',
      key: (row) => ('consolidationLevel' in row && row.status === 'open' ? row.subscriptionId : null),
    },
    {
      index: 'childInvoiceParents',
      key: (row) =>
        'consolidationLevel' in row && row.parentInvoiceId !== null ? row.parentInvoiceId : null,
    },
    {
      index: 'subscriptionInvoices',
      key: (row) => ('consolidationLevel' in row ? row.subscriptionId : null),
    },
  ],
  subscriptions: [
    {
      index: 'customerSubscriptions',
      key: (row) => ('billingAnchor' in row ? row.customerId : null),
    },
    {
      index: 'paymentProfileSubscriptions',
      key: (row) => ('billingAnchor' in row && row.paymentProfileId !== null ? row.paymentProfileId : null),
    },
    {
      index: 'subscriptionReferences',
      key: (row) => ('billingAnchor' in row && row.reference !== null ? row.reference : null),
    },
  ],
  subscriptionNotes: [
    { index: 'subscriptionNotes', key: (row) => ('sticky' in row ? row.subscriptionId : null) },
  ],
  customers: [
    {
      index: 'customerChildren',
      key: (row) => ('parentId' in row && row.parentId !== null ? row.parentId : null),
    },
  ],
  paymentProfiles: [
    {
      index: 'customerPaymentProfiles',
      key: (row) => ('vaultToken' in row && 'customerId' in row ? row.customerId : null),
    },
  ],
  prepayments: [
    {
      index: 'subscriptionPrepayments',
      key: (row) => ('refunded' in row && 'external' in row ? row.subscriptionId : null),
    },
  ],
  creditNotes: [
    {
      index: 'subscriptionCreditNotes',
      key: (row) => ('applications' in row && 'reversed' in row ? row.subscriptionId : null),
    },
  ],
  metafields: [
    {
      index: 'resourceTypeMetafields',
      key: (row) => ('inputType' in row && 'enumValues' in row ? row.resourceType : null),
    },
  ],
  metadata: [
    {
      index: 'resourceMetadata',
      key: (row) =>
        'metafieldId' in row && 'resourceId' in row ? `${row.resourceType}/${row.resourceId}` : null,
    },
    { index: 'metafieldMetadata', key: (row) => ('metafieldId' in row ? row.metafieldId : null) },
    {
      index: 'resourceTypeMetadata',
      key: (row) => ('metafieldId' in row && row.deletedAt === null ? row.resourceType : null),
    },
    {
      index: 'resourceTypeRemovedMetadata',
      key: (row) => ('metafieldId' in row && row.deletedAt !== null ? row.resourceType : null),
    },
  ],
  subscriptionGroups: [
    { index: 'groupCustomers', key: (row) => ('memberIds' in row ? row.customerId : null) },
  ],
};

/** What an index keeps of a row: which index, and the row's key in it (null: none). */
export interface KeyDefinition<N extends string, K extends string | number = string> {
  readonly index: N;
  readonly key: (row: AnyRow) => K | null;
}

type ListKeyDefinition = KeyDefinition<ListIndexName, number | string>;

/** Indexes whose keys each hold an `IdSet` of row ids (the set indexes). */
export type IdSetIndexes<N extends string> = { readonly [K in N]: ShardedIndex<StoredIdSet> };

/** A batch's writes to one index of id sets, by key. */
interface IdSetWriter<K> {
  get(key: K): StoredIdSet | undefined;
  set(key: K, value: StoredIdSet): void;
  delete(key: K): void;
}

/** Moves a row's id from the set under `oldKey` to the one under `newKey`; a key left with no id goes. */
function moveId<K>(
  index: IdSetWriter<K>,
  id: number,
  oldKey: K | null,
  newKey: K | null,
  owned: Owned,
): void {
  if (oldKey !== null) withoutId(index, oldKey, id, owned);
  if (newKey !== null) withId(index, newKey, id, owned);
}

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
    moveId(index, id, oldKey, newKey, owned);
  }
}

/*
 * Most keys hold one id, stored as that number: adding a row's id to an absent key, or taking it from a
 * key that holds it alone, needs no set. (Through the sets, each such write built a tree of one id
 * with a node per level, read its only id back through a generator, and dropped it.)
 */

function withId<K>(index: IdSetWriter<K>, key: K, id: number, owned: Owned): void {
  const stored = index.get(key);
  if (stored === undefined || stored === id) {
    invariant(Number.isSafeInteger(id) && id >= 0, `id ${id} is a non-negative safe integer`);
    index.set(key, id);
  } else index.set(key, storedIdSet(idSetAdd(loadedIdSet(stored), id, owned)));
}

function withoutId<K>(index: IdSetWriter<K>, key: K, id: number, owned: Owned): void {
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

/** A batch's writer of one list index. */
export type ListIndexWriter = IdKeyedWriter<StoredIdSet> | IndexWriter<StoredIdSet>;

function idListWriter(
  indexes: ListIndexes,
  written: Map<ListIndexName, ListIndexWriter>,
  name: IdListName,
  owned: Owned,
): IdKeyedWriter<StoredIdSet> {
  const writer = written.get(name);
  if (writer instanceof IdKeyedWriter) return writer;
  const made = new IdKeyedWriter(indexes[name], owned);
  written.set(name, made);
  return made;
}

function textListWriter(
  indexes: ListIndexes,
  written: Map<ListIndexName, ListIndexWriter>,
  name: TextListName,
  owned: Owned,
): IndexWriter<StoredIdSet> {
  const writer = written.get(name);
  if (writer instanceof IndexWriter) return writer;
  const made = new IndexWriter(indexes[name], owned);
  written.set(name, made);
  return made;
}

/** The list indexes `written` with a row moved between lists after it was written or deleted. */
export function relisted(
  indexes: ListIndexes,
  written: Map<ListIndexName, ListIndexWriter>,
  table: TableName,
  id: number,
  previous: AnyRow | undefined,
  next: AnyRow | undefined,
  owned: Owned,
): void {
  // Most tables keep no list (a renewal's thousand component rows): nothing made or walked for them.
  const tableDefinitions = definitions[table];
  if (tableDefinitions === undefined) return;
  for (const definition of tableDefinitions) {
    const oldKey = previous === undefined ? null : definition.key(previous);
    const newKey = next === undefined ? null : definition.key(next);
    if (oldKey === newKey) continue;
    const name = definition.index;
    if (isIdList(name))
      moveId(idListWriter(indexes, written, name, owned), id, idKeyOf(oldKey), idKeyOf(newKey), owned);
    else
      moveId(textListWriter(indexes, written, name, owned), id, textKeyOf(oldKey), textKeyOf(newKey), owned);
  }
}

/** A row's key in a list keyed by ids: the definitions of those lists give ids. */
const idKeyOf = (key: number | string | null): number | null => (key === null ? null : Number(key));

const textKeyOf = (key: number | string | null): string | null => (key === null ? null : String(key));

/** What each writer of a batch left, by list index. */
export function listWriterResults(
  written: ReadonlyMap<ListIndexName, ListIndexWriter>,
): Map<ListIndexName, ListIndexes[ListIndexName]> {
  const values = new Map<ListIndexName, ListIndexes[ListIndexName]>();
  for (const [name, writer] of written) values.set(name, writer.result());
  return values;
}

/**
 * A key of a list index: an id, or an id as a query gives it (text that only its canonical decimal form
 * matches), or a reference's text.
 */
export type ListKey = number | string;

function storedUnder(indexes: ListIndexes, name: ListIndexName, key: ListKey): StoredIdSet | undefined {
  if (!isIdList(name)) return indexGet(indexes[name], String(key));
  const id = Number(key);
  if (typeof key === 'string' && String(id) !== key) return undefined;
  return idKeyedGet(indexes[name], id);
}

/** The ids listed under a key, in id order (none when the key is absent). */
export const listed = (indexes: ListIndexes, name: ListIndexName, key: ListKey): readonly number[] =>
  idSetToArray(loadedIdSet(storedUnder(indexes, name, key)));

/** The rows of `table` listed under a key in a state, in id order. */
export function listedRows<K extends TableName>(
  state: { readonly tables: Tables; readonly listIndexes: ListIndexes },
  name: ListIndexName,
  key: ListKey,
  table: K,
): TableRows[K][] {
  const rows: TableRows[K][] = [];
  for (const id of idSetValues(loadedIdSet(storedUnder(state.listIndexes, name, key)))) {
    const row = tableGet(state.tables[table] as Table<TableRows[K]>, id);
    if (row !== undefined) rows.push(row);
  }
  return rows;
}

/**
 * The list indexes of a state built from its tables (for a state stored before they held id sets, or
 * before the lists were keyed by ids).
 */
export function rebuiltListIndexes(state: { readonly tables: Tables }): ListIndexes {
  const empty = emptyListIndexes();
  const written = new Map<ListIndexName, ListIndexWriter>();
  const owned: Owned = new Set();
  for (const table of Object.keys(definitions) as TableName[]) {
    const rows = state.tables[table] as Table<AnyRow> | undefined;
    if (rows === undefined) continue;
    for (const row of tableRows(rows)) relisted(empty, written, table, row.id, undefined, row, owned);
  }
  return { ...empty, ...Object.fromEntries(listWriterResults(written)) };
}
