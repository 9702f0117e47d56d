/**
 * The one-to-many indexes that replace table scans (a customer's subscriptions, children and payment
 * profiles, a payment profile's subscriptions, a subscription's invoices) always list exactly the rows a
 * scan of the table would find, whatever requests changed them.
 */
import { describe, expect, it } from 'vitest';
import { type ListIndexName, listed, rebuiltListIndexes } from '../../src/engine/list-index.js';
import { type SiteState, type TableName, type TableRows, upgradeState } from '../../src/engine/state.js';
import { indexEntries, type ShardedIndex, type Table, tableRows } from '../../src/kernel/collection.js';
import {
  emptyIdKeyed,
  type IdKeyedIndex,
  IdKeyedWriter,
  idKeyedEntries,
  idKeyedGet,
} from '../../src/kernel/id-keyed.js';
import {
  EMPTY_ID_SET,
  idSetFrom,
  loadedIdSet,
  type StoredIdSet,
  storedIdSet,
} from '../../src/kernel/id-set.js';
import { cardAttributes, num, site } from '../helpers/api.js';
import { keyedByText } from '../helpers/list-indexes.js';

/** What a scan of `table` finds for each key, in id order. */
function scanned<K extends TableName>(
  state: SiteState,
  table: K,
  keyOf: (row: TableRows[K]) => number | null,
): Map<string, number[]> {
  const found = new Map<string, number[]>();
  for (const row of tableRows(state.tables[table] as Table<TableRows[K]>)) {
    const key = keyOf(row);
    if (key === null) continue;
    found.set(String(key), [...(found.get(String(key)) ?? []), row.id]);
  }
  return found;
}

/** Every key of a list index with its ids sorted. */
function indexed(state: SiteState, name: ListIndexName): Map<string, number[]> {
  const found = new Map<string, number[]>();
  const index: object = state.listIndexes[name];
  const keys = Object.hasOwn(index, 'groups')
    ? indexEntries(index as ShardedIndex<StoredIdSet>)
    : idKeyedEntries(index as IdKeyedIndex<StoredIdSet>);
  for (const [key] of keys) {
    found.set(
      String(key),
      [...listed(state.listIndexes, name, key)].sort((a, b) => a - b),
    );
  }
  return found;
}

function expectIndexesMatchScans(state: SiteState): void {
  expect(indexed(state, 'customerSubscriptions')).toEqual(
    scanned(state, 'subscriptions', (row) => row.customerId),
  );
  expect(indexed(state, 'paymentProfileSubscriptions')).toEqual(
    scanned(state, 'subscriptions', (row) => row.paymentProfileId),
  );
  expect(indexed(state, 'customerChildren')).toEqual(scanned(state, 'customers', (row) => row.parentId));
  expect(indexed(state, 'customerPaymentProfiles')).toEqual(
    scanned(state, 'paymentProfiles', (row) => row.customerId),
  );
  expect(indexed(state, 'subscriptionInvoices')).toEqual(
    scanned(state, 'invoices', (row) => row.subscriptionId),
  );
}

describe('relation indexes', () => {
  it('list exactly what a scan finds through signups, parents, cards, cancellations and deletions', () => {
    const s = site();
    const product = s.product();
    const parent = s.customer();
    const child = s.customer({ parent_id: parent });
    const other = s.customer({ parent_id: parent });
    const first = s.subscribed(product);
    const second = s.subscribed(product);
    const spare = s.card(first.customer);
    s.ok('PUT', `/customers/${other}.json`, { customer: { parent_id: child } });
    s.ok('DELETE', `/subscriptions/${second.id}.json`);
    s.advance('2026-02-20T12:00:00Z');
    s.ok('POST', `/subscriptions/${first.id}/invoices.json`, {
      invoice: { line_items: [{ title: 'Setup', quantity: 1, unit_price: '5' }] },
    });
    expectIndexesMatchScans(s.state);
    expect(listed(s.state.listIndexes, 'customerChildren', parent)).toEqual([child]);
    expect(listed(s.state.listIndexes, 'customerChildren', child)).toEqual([other]);
    expect(listed(s.state.listIndexes, 'subscriptionInvoices', first.id).length).toBeGreaterThan(1);

    s.ok('DELETE', `/payment_profiles/${spare}.json`, undefined, 204);
    s.ok('DELETE', `/customers/${parent}.json`, undefined, 204);
    expectIndexesMatchScans(s.state);
    expect(listed(s.state.listIndexes, 'customerChildren', parent)).toEqual([]);
    // Whatever came and went, each list has the shape a build from the tables gives it.
    expect(s.state.listIndexes).toStrictEqual(rebuiltListIndexes(s.state));
  });

  it('key each list by ids, one slot per id up to the last that holds any, and read ids given as text', () => {
    const s = site();
    const product = s.product();
    const first = s.subscribed(product);
    const second = s.subscribed(product);
    expect(s.state.listIndexes.customerSubscriptions.length).toBe(second.customer);
    expect(listed(s.state.listIndexes, 'customerSubscriptions', String(first.customer))).toEqual([first.id]);
    for (const text of [`0${first.customer}`, `${first.customer}.0`, ' 1', '', 'x'])
      expect(listed(s.state.listIndexes, 'customerSubscriptions', text)).toEqual([]);
    const lonely = s.customer();
    const card = num(
      s.ok('POST', '/payment_profiles.json', {
        payment_profile: { customer_id: lonely, ...cardAttributes() },
      }),
      'payment_profile',
      'id',
    );
    expect(s.state.listIndexes.customerPaymentProfiles.length).toBe(lonely);
    s.ok('DELETE', `/payment_profiles/${card}.json`, undefined, 204);
    // The emptied slots at the end go.
    expect(s.state.listIndexes.customerPaymentProfiles.length).toBe(second.customer);
    // A list few rows have a key in stays sharded: a key at a high id costs one key.
    const parent = s.customer();
    s.customer({ parent_id: parent });
    expect(Object.hasOwn(s.state.listIndexes.customerChildren, 'groups')).toBe(true);
    expect(listed(s.state.listIndexes, 'customerChildren', parent)).toHaveLength(1);
  });

  it('loads a state whose lists were keyed by text, rebuilt keyed by ids', () => {
    const s = site();
    const product = s.product();
    const parent = s.customer();
    s.customer({ parent_id: parent });
    const { id } = s.subscribed(product);
    s.ok('POST', `/subscriptions/${id}/invoices.json`, {
      invoice: { line_items: [{ title: 'Setup', quantity: 1, unit_price: '5' }] },
    });
    const current = s.state.listIndexes;
    const older = JSON.parse(JSON.stringify(keyedByText(s.state))) as SiteState;
    expect(Object.hasOwn(older.listIndexes.subscriptionInvoices, 'groups')).toBe(true);
    s.state = upgradeState(older);
    expect(s.state.listIndexes).toStrictEqual(JSON.parse(JSON.stringify(current)));
    expectIndexesMatchScans(s.state);
    s.ok('POST', `/subscriptions/${id}/invoices.json`, {
      invoice: { line_items: [{ title: 'More', quantity: 1, unit_price: '5' }] },
    });
    expect(listed(s.state.listIndexes, 'subscriptionInvoices', id)).toHaveLength(3);
  });

  it('answer the rare paths that used to scan: delete checks, profile lists, invoice lists', () => {
    const s = site();
    const product = s.product();
    const { id, customer, profile } = s.subscribed(product);
    const lonely = s.customer();
    const card = num(
      s.ok('POST', '/payment_profiles.json', {
        payment_profile: { customer_id: lonely, ...cardAttributes() },
      }),
      'payment_profile',
      'id',
    );
    s.fail('DELETE', `/customers/${customer}.json`, undefined, 422);
    s.fail('DELETE', `/payment_profiles/${profile}.json`, undefined, 422);
    const profiles = s.ok('GET', `/payment_profiles.json?customer_id=${lonely}`);
    expect(profiles).toEqual([
      { payment_profile: expect.objectContaining({ id: card, customer_id: lonely }) },
    ]);

    s.ok('POST', `/subscriptions/${id}/invoices.json`, {
      invoice: { line_items: [{ title: 'Extra', quantity: 2, unit_price: '3' }] },
    });
    const ascending = s.invoices(id).map((invoice) => num(invoice, 'subscription_id'));
    expect(ascending).toEqual([id, id]);
    const descending = s.ok('GET', `/invoices.json?subscription_id=${id}&direction=desc`);
    const uids = (body: unknown) =>
      ((body as { invoices: { uid: string }[] }).invoices ?? []).map((invoice) => invoice.uid);
    expect(uids(descending)).toEqual(uids(s.ok('GET', `/invoices.json?subscription_id=${id}`)).reverse());
  });
});

describe('list indexes keep a key of one id as that id', () => {
  /** `state` with every list index key of one id stored as a tree, as an earlier version kept it. */
  function asTrees(state: SiteState): SiteState {
    const listIndexes = Object.fromEntries(
      Object.entries(state.listIndexes).map(([name, index]: [string, object]) => {
        if (Object.hasOwn(index, 'groups')) return [name, index];
        const writer = new IdKeyedWriter<StoredIdSet>(emptyIdKeyed());
        for (const [key, stored] of idKeyedEntries(index as IdKeyedIndex<StoredIdSet>))
          writer.set(key, loadedIdSet(stored));
        return [name, writer.result()];
      }),
    );
    return { ...state, listIndexes } as unknown as SiteState;
  }

  it('stores a number for one id and a set for more, and reads a tree of one id saved earlier alike', () => {
    const s = site();
    const product = s.product();
    const { id, customer } = s.subscribed(product);
    expect(idKeyedGet(s.state.listIndexes.customerSubscriptions, customer)).toBe(id);
    expect(idKeyedGet(s.state.listIndexes.subscriptionInvoices, id)).toEqual(expect.any(Number));

    s.state = asTrees(s.state);
    expect(typeof idKeyedGet(s.state.listIndexes.customerSubscriptions, customer)).toBe('object');
    expect(listed(s.state.listIndexes, 'customerSubscriptions', customer)).toEqual([id]);
    expectIndexesMatchScans(s.state);

    s.ok('POST', `/subscriptions/${id}/invoices.json`, {
      invoice: { line_items: [{ title: 'Setup', quantity: 1, unit_price: '5' }] },
    });
    expect(listed(s.state.listIndexes, 'subscriptionInvoices', id)).toHaveLength(2);
    s.ok('DELETE', `/subscriptions/${id}.json`);
    expectIndexesMatchScans(s.state);
    // Rebuilt from the tables (as a snapshot of an older shape is), every key of one id is a number.
    for (const [, stored] of idKeyedEntries(rebuiltListIndexes(s.state).customerPaymentProfiles))
      expect(stored).toEqual(expect.any(Number));
  });

  it('round-trips a stored set through storedIdSet and loadedIdSet', () => {
    for (const ids of [[], [7], [70_000], [1, 2], [5, 300_000]]) {
      const set = idSetFrom(ids);
      const stored = storedIdSet(set);
      expect(typeof stored === 'number').toBe(ids.length === 1);
      expect(loadedIdSet(stored)).toStrictEqual(set);
    }
    expect(loadedIdSet(undefined)).toBe(EMPTY_ID_SET);
  });
});
