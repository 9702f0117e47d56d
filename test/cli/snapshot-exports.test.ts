/**
 * Export batches outlive a restart: replayed from the journal, read back from a snapshot, and a snapshot
 * written before invoice and subscription exports existed loads with their tables empty, its proforma
 * batches (stored id by id then) still read.
 */
import { describe, expect, it } from 'vitest';
import { readSnapshot, writeSnapshot } from '../../src/cli/snapshot.js';
import type { SiteState } from '../../src/engine/state.js';
import { listFromArray } from '../../src/kernel/collection.js';
import { call, num, site, T0 } from '../helpers/api.js';
import { dataDirSite } from '../helpers/data-dir-site.js';

const served = dataDirSite('billing-core-exports-', 'export-key');
const openSite = served.open;

/** A site with two remittance subscriptions, each with a proforma invoice, and one batch of each kind. */
function exported() {
  const s = site();
  const product = s.product();
  for (let i = 0; i < 2; i += 1) {
    const body = s.subscribe({
      product_id: product,
      customer_id: s.customer(),
      payment_collection_method: 'remittance',
    });
    s.ok('POST', `/subscriptions/${num(body, 'subscription', 'id')}/proforma_invoices.json`);
  }
  for (const kind of ['proforma_invoices', 'invoices', 'subscriptions'])
    s.ok('POST', `/api_exports/${kind}.json`);
  return s;
}

const READS = ['proforma_invoices', 'invoices', 'subscriptions'].flatMap((kind) => [
  `/api_exports/${kind}/1.json`,
  `/api_exports/${kind}/1/rows.json?per_page=1&page=2`,
]);

describe('export batches across a restart', () => {
  it('are replayed from the journal', async () => {
    const first = await openSite();
    await first.send('POST', '/product_families.json', { product_family: { name: 'F', handle: 'f' } });
    await first.send('POST', '/product_families/1/products.json', {
      product: { name: 'P', handle: 'p', price_in_cents: 0, interval: 1, interval_unit: 'month' },
    });
    await first.send('POST', '/customers.json', {
      customer: { first_name: 'A', last_name: 'B', email: 'a@b.c' },
    });
    for (let i = 0; i < 2; i += 1)
      expect(
        (
          await first.send('POST', '/subscriptions.json', {
            subscription: { product_id: 1, customer_id: 1, payment_collection_method: 'remittance' },
          })
        ).status,
      ).toBe(201);
    for (const kind of ['invoices', 'subscriptions'])
      expect((await first.send('POST', `/api_exports/${kind}.json`)).status).toBe(201);
    const before = await Promise.all(
      ['invoices', 'subscriptions'].map((kind) => first.send('GET', `/api_exports/${kind}/1/rows.json`)),
    );
    await first.store.close();

    const second = await openSite();
    const after = await Promise.all(
      ['invoices', 'subscriptions'].map((kind) => second.send('GET', `/api_exports/${kind}/1/rows.json`)),
    );
    expect(after).toEqual(before);
    expect(after.map((answer) => (answer.body as unknown[]).length)).toEqual([2, 2]);
    expect((await second.send('POST', '/api_exports/invoices.json')).body).toMatchObject({
      batchjob: { id: 2 },
    });
    await second.store.close();
  });

  it('are read back from a snapshot', async () => {
    const s = exported();
    await writeSnapshot(served.dir(), { position: 1, state: s.state });
    const read = await readSnapshot(served.dir());
    if (!read.ok || read.value === undefined) throw new Error('no snapshot');
    const loaded = read.value.state;
    for (const path of READS) expect(call(loaded, 'GET', path).body).toEqual(s.ok('GET', path));
  });

  it('a snapshot from before invoice and subscription exports loads with none, its proforma batches read', async () => {
    const s = exported();
    const { invoiceExports: _invoices, subscriptionExports: _subscriptions, ...tables } = s.state.tables;
    // A proforma batch as an earlier version stored it: its ids one by one.
    const proformaExports = {
      rows: listFromArray([{ id: 1, createdAt: T0, finishedAt: T0, rowCount: 2, invoiceIds: [1, 2] }]),
      count: 1,
    };
    const old = { ...s.state, tables: { ...tables, proformaExports } } as unknown as SiteState;
    await writeSnapshot(served.dir(), { position: 1, state: old });
    const read = await readSnapshot(served.dir());
    if (!read.ok || read.value === undefined) throw new Error('no snapshot');
    const state = read.value.state;
    const proformas = call(state, 'GET', '/api_exports/proforma_invoices/1/rows.json').body as unknown[];
    expect(proformas).toEqual(s.ok('GET', '/api_exports/proforma_invoices/1/rows.json'));
    expect(proformas).toHaveLength(2);
    for (const kind of ['invoices', 'subscriptions']) {
      expect(call(state, 'GET', `/api_exports/${kind}/1.json`).status).toBe(404);
      const started = call(state, 'POST', `/api_exports/${kind}.json`);
      expect(started.body).toMatchObject({ batchjob: { id: 1, row_count: 2 } });
    }
  });
});
