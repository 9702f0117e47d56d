/**
 * The site's state: plain, normalized JSON. Tables keyed by sequential ids, derived indexes (handles,
 * references) kept by `evolve`, the event log, and counters. No class instances, no `Date`, no `Decimal`:
 * `JSON.parse(JSON.stringify(state))` is an equal, fully working state.
 */

import type { Product, ProductFamily, ProductPricePoint } from '../domain/catalog/types.js';
import type { Customer } from '../domain/customer/types.js';
import type { SiteEvent } from '../domain/event-log/types.js';
import type { Invoice } from '../domain/invoice/types.js';
import type { PaymentProfile } from '../domain/payment/types.js';
import { resolveSettings, type SiteConfig, type SiteSettings } from '../domain/site/config.js';
import type { Subscription } from '../domain/subscription/types.js';
import {
  type ChunkedList,
  emptyIndex,
  emptyList,
  emptyTable,
  type ShardedIndex,
  type Table,
} from '../kernel/collection.js';
import type { Instant } from '../kernel/time.js';
import { emptySchedule, type Schedule } from './schedule.js';

/** The rows of each table. */
export interface TableRows {
  readonly productFamilies: ProductFamily;
  readonly products: Product;
  readonly productPricePoints: ProductPricePoint;
  readonly customers: Customer;
  readonly paymentProfiles: PaymentProfile;
  readonly subscriptions: Subscription;
  readonly invoices: Invoice;
}

export type TableName = keyof TableRows;

export type Tables = { readonly [K in TableName]: Table<TableRows[K]> };

/** String-keyed lookups derived from rows (see `indexDefinitions` in changes.ts). */
export interface Indexes {
  readonly productFamilyHandles: ShardedIndex<number>;
  readonly productHandles: ShardedIndex<number>;
  readonly productPricePointHandles: ShardedIndex<number>;
  readonly customerReferences: ShardedIndex<number>;
}

export type IndexName = keyof Indexes;

export interface Counters {
  /** Transaction ids shared by invoice lines, discounts, taxes and payments. */
  readonly transactions: number;
  /** The last invoice number issued. */
  readonly invoiceNumbers: number;
}

export interface SiteState {
  readonly schema: 1;
  readonly settings: SiteSettings;
  /** The latest instant the site has seen; time never runs backwards. */
  readonly clock: Instant | null;
  /** Subscriptions by the UTC day on which something falls due for them (see schedule.ts). */
  readonly schedule: Schedule;
  readonly tables: Tables;
  readonly indexes: Indexes;
  readonly counters: Counters;
  readonly events: ChunkedList<SiteEvent>;
}

/**
 * Creates an empty site from a configuration (every field optional).
 * @example const state = createSite({ timeZone: 'America/New_York', apiKeys: ['secret'] });
 */
export function createSite(config: SiteConfig = {}): SiteState {
  return {
    schema: 1,
    settings: resolveSettings(config),
    clock: null,
    schedule: emptySchedule(),
    tables: {
      productFamilies: emptyTable(),
      products: emptyTable(),
      productPricePoints: emptyTable(),
      customers: emptyTable(),
      paymentProfiles: emptyTable(),
      subscriptions: emptyTable(),
      invoices: emptyTable(),
    },
    indexes: {
      productFamilyHandles: emptyIndex(),
      productHandles: emptyIndex(),
      productPricePointHandles: emptyIndex(),
      customerReferences: emptyIndex(),
    },
    counters: { transactions: 0, invoiceNumbers: 0 },
    events: emptyList(),
  };
}
