/**
 * The site's state: plain, normalized JSON. Tables keyed by sequential ids, derived indexes (handles,
 * references) kept by `evolve`, the event log, and counters. No class instances, no `Date`, no `Decimal`:
 * `JSON.parse(JSON.stringify(state))` is an equal, fully working state.
 */

import { type EventLogIndex, emptyEventLogIndex } from '../domain/event-log/log-index.js';
import type { SiteEvent } from '../domain/event-log/types.js';
import type { LedgerTransfer } from '../domain/ledger/types.js';
import { resolveSettings, type SiteConfig, type SiteSettings } from '../domain/site/config.js';
import { checkSiteConfig, SiteConfigError } from '../domain/site/config-check.js';
import {
  type ChunkedList,
  emptyIndex,
  emptyList,
  emptyTable,
  type ShardedIndex,
} from '../kernel/collection.js';
import type { Instant } from '../kernel/time.js';
import { emptyListIndexes, hasCurrentListShape, type ListIndexes, rebuiltListIndexes } from './list-index.js';
import { shareLoadedState } from './persistence/share.js';
import { emptySchedule, type Schedule } from './schedule.js';
import { emptySetIndexes, type SetIndexes } from './set-index.js';
import type { Tables } from './tables.js';

export type { TableName, TableRows, Tables } from './tables.js';

/** String-keyed lookups derived from rows (see `indexDefinitions` in changes.ts). */
export interface Indexes {
  readonly productFamilyHandles: ShardedIndex<number>;
  readonly productHandles: ShardedIndex<number>;
  readonly productPricePointHandles: ShardedIndex<number>;
  readonly componentHandles: ShardedIndex<number>;
  /** Keyed `${componentId}/${handle}`. */
  readonly componentPricePointHandles: ShardedIndex<number>;
  /** Keyed `${pricePointId}/${JSON of the property values}` (see `segmentKey`). */
  readonly segmentKeys: ShardedIndex<number>;
  readonly customerReferences: ShardedIndex<number>;
  /** Customer ids (as text) to their `portals` row. */
  readonly portalCustomers: ShardedIndex<number>;
  /** Subscription ids (as text) to their `paymentUpdateRequests` row. */
  readonly paymentUpdateRequestSubscriptions: ShardedIndex<number>;
  /** One-time tokens to their row. */
  readonly oneTimeTokenKeys: ShardedIndex<number>;
  /** Coupon codes (normalized) to coupon ids. */
  readonly couponCodes: ShardedIndex<number>;
  /** Coupon subcodes (normalized) to subcode ids; one namespace with `couponCodes`. */
  readonly couponSubcodeCodes: ShardedIndex<number>;
  readonly featureTemplateKeys: ShardedIndex<number>;
  /** Keyed `${subscriptionId}/${componentId}`: the subscription's row of that component. */
  readonly subscriptionComponentKeys: ShardedIndex<number>;
  /** Subscription ids (as text) to their newest `subscriptionComponents` row (rows chain back from it). */
  readonly subscriptionComponentHeads: ShardedIndex<number>;
  /** Keyed `${subscriptionId}/${componentId}`: the `eventUsage` row of that pair. */
  readonly eventUsageKeys: ShardedIndex<number>;
  /** Subscription ids (as text) to their `groupMemberships` row: a subscription is in at most one group. */
  readonly groupMembershipSubscriptions: ShardedIndex<number>;
  /** Keyed `${resourceType}/${name}`: the metafield of that name. */
  readonly metafieldNames: ShardedIndex<number>;
  /** Offer handles to offer ids. */
  readonly offerHandles: ShardedIndex<number>;
}

export type IndexName = keyof Indexes;

export interface Counters {
  /** Transaction ids shared by invoice lines, discounts, taxes and payments. */
  readonly transactions: number;
  /** The last invoice number issued. */
  readonly invoiceNumbers: number;
  /** Ids of the prices (brackets) of component price points and segments. */
  readonly prices: number;
  /** Ids of coupon restrictions. */
  readonly couponRestrictions: number;
}

/**
 * A site's whole state: plain JSON (a `JSON.parse(JSON.stringify(state))` copy is an equal, working state),
 * never changed in place; every call answers a new one.
 */
export interface SiteState {
  /** The version of this shape. */
  readonly schema: 1;
  /** The site's configuration with every default resolved. */
  readonly settings: SiteSettings;
  /** The latest instant the site has seen; time never runs backwards. */
  readonly clock: Instant | null;
  /** Subscriptions by the UTC day on which something falls due for them (see schedule.ts). */
  readonly schedule: Schedule;
  /**
   * The site's records, one table per kind (products, customers, subscriptions, invoices, …), each in chunks
   * of plain JSON rows keyed by id.
   */
  readonly tables: Tables;
  /**
   * One-to-one lookups derived from the rows (a handle, a code or a reference to an id), kept in step with
   * every write.
   */
  readonly indexes: Indexes;
  /** Keys to several rows (open invoices, child invoices, a customer's groups): see list-index.ts. */
  readonly listIndexes: ListIndexes;
  /** Keys that may hold most of a table (a state, a status) to the ids of their rows: see set-index.ts. */
  readonly setIndexes: SetIndexes;
  /**
   * Counters of the ids that are not a table's own (transactions, invoice numbers, prices, restrictions), so
   * that the same requests give the same ids.
   */
  readonly counters: Counters;
  /** The site's event log, in id order; `GET /events.json` lists it. */
  readonly events: ChunkedList<SiteEvent>;
  /**
   * The books: every money movement as a balanced transfer between accounts (domain/ledger), appended in
   * the same change as the rows it moves money on; `checkLedger` (billing-core/testing) audits them.
   */
  readonly ledger: ChunkedList<LedgerTransfer>;
  /** The ids of each subscription's and each key's records (see log-index.ts), kept by `evolve`. */
  readonly eventIndex: EventLogIndex;
}

/**
 * Creates an empty site from a configuration (every field optional). A configuration the engine could not
 * run (an unknown time zone or currency, a tax rate that is not a decimal, a misspelt key) throws a
 * `SiteConfigError` whose `problems` name every field at fault, rather than failing later requests.
 * @example const state = createSite({ timeZone: 'America/New_York', apiKeys: ['secret'] });
 */
export function createSite(config: SiteConfig = {}): SiteState {
  const checked = checkSiteConfig(config);
  if (!checked.ok) throw new SiteConfigError(checked.problems);
  return {
    schema: 1,
    settings: resolveSettings(config),
    clock: null,
    schedule: emptySchedule(),
    tables: {
      productFamilies: emptyTable(),
      products: emptyTable(),
      productPricePoints: emptyTable(),
      components: emptyTable(),
      componentPricePoints: emptyTable(),
      segments: emptyTable(),
      customers: emptyTable(),
      paymentProfiles: emptyTable(),
      emails: emptyTable(),
      portals: emptyTable(),
      paymentUpdateRequests: emptyTable(),
      oneTimeTokens: emptyTable(),
      subscriptions: emptyTable(),
      subscriptionNotes: emptyTable(),
      metafields: emptyTable(),
      metadata: emptyTable(),
      invoices: emptyTable(),
      proformaInvoices: emptyTable(),
      creditNotes: emptyTable(),
      prepayments: emptyTable(),
      proformaExports: emptyTable(),
      coupons: emptyTable(),
      couponSubcodes: emptyTable(),
      featureTemplates: emptyTable(),
      catalogFeatures: emptyTable(),
      subscriptionComponents: emptyTable(),
      allocations: emptyTable(),
      usages: emptyTable(),
      eventUsage: emptyTable(),
      subscriptionGroups: emptyTable(),
      groupMemberships: emptyTable(),
      reasonCodes: emptyTable(),
      offers: emptyTable(),
      invoiceExports: emptyTable(),
      subscriptionExports: emptyTable(),
    },
    indexes: {
      productFamilyHandles: emptyIndex(),
      productHandles: emptyIndex(),
      productPricePointHandles: emptyIndex(),
      componentHandles: emptyIndex(),
      componentPricePointHandles: emptyIndex(),
      segmentKeys: emptyIndex(),
      customerReferences: emptyIndex(),
      portalCustomers: emptyIndex(),
      paymentUpdateRequestSubscriptions: emptyIndex(),
      oneTimeTokenKeys: emptyIndex(),
      couponCodes: emptyIndex(),
      couponSubcodeCodes: emptyIndex(),
      featureTemplateKeys: emptyIndex(),
      subscriptionComponentKeys: emptyIndex(),
      subscriptionComponentHeads: emptyIndex(),
      eventUsageKeys: emptyIndex(),
      groupMembershipSubscriptions: emptyIndex(),
      metafieldNames: emptyIndex(),
      offerHandles: emptyIndex(),
    },
    listIndexes: emptyListIndexes(),
    setIndexes: emptySetIndexes(),
    counters: { transactions: 0, invoiceNumbers: 0, prices: 0, couponRestrictions: 0 },
    events: emptyList(),
    ledger: emptyList(),
    eventIndex: emptyEventLogIndex(),
  };
}

/** `current` with every member of `empty` it lacks added (the same object when it lacks none). */
function filled<T extends object>(current: T, empty: T): T {
  let result = current;
  for (const [key, value] of Object.entries(empty))
    if (!Object.hasOwn(current, key)) result = { ...result, [key]: value };
  return result;
}

/**
 * A state loaded from JSON made ready to run: one saved by an earlier version of the engine gets the
 * tables and indexes added since (credit notes, prepayments, ...) filled in empty, and every loaded state
 * gets back, in place, the sharing of values the running engine gives it (`shareLoadedState`: about a
 * third less heap). A current state is answered as the same object. A host that keeps its own copies of
 * states calls it once on a state it loads; `billing-core serve --data-dir` does the same.
 * @example const state = upgradeState(JSON.parse(saved));
 */
export function upgradeState(state: SiteState): SiteState {
  return shareLoadedState(fillLaterTables(state));
}

/**
 * A state saved by an earlier version of the engine, with the tables and indexes added since filled in
 * empty and list indexes saved keyed by text rebuilt from the tables; a current state is answered as it
 * is (no sharing restored: see `upgradeState`).
 * @example const state = fillLaterTables(older);
 */
export function fillLaterTables(state: SiteState): SiteState {
  const template = createSite();
  const tables = filled(state.tables, template.tables);
  const indexes = filled(state.indexes, template.indexes);
  const filledLists = filled(state.listIndexes, template.listIndexes);
  // Saved while the lists were keyed by text: built again, keyed by ids, from the tables.
  const listIndexes = hasCurrentListShape(filledLists) ? filledLists : rebuiltListIndexes({ tables });
  const setIndexes = filled(state.setIndexes, template.setIndexes);
  if (
    tables === state.tables &&
    indexes === state.indexes &&
    listIndexes === state.listIndexes &&
    setIndexes === state.setIndexes
  )
    return state;
  return { ...state, tables, indexes, listIndexes, setIndexes };
}
