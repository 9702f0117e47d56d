/**
 * Offers outlive a restart: replayed from the journal (archiving and the handle index included), read
 * back from a snapshot, and a snapshot written before the table existed loads with it empty and ready.
 */
import { describe, expect, it } from 'vitest';
import { readSnapshot, writeSnapshot } from '../../src/cli/snapshot.js';
import type { SiteState } from '../../src/engine/state.js';
import { call, site } from '../helpers/api.js';
import { dataDirSite } from '../helpers/data-dir-site.js';

const served = dataDirSite('billing-core-offers-', 'offer-key');
const openSite = served.open;
const offer = (handle: string) => ({ offer: { name: handle, handle, product_id: 1 } });

/** A site with family 1 and its product 1, for offers to name. */
function withProduct() {
  const s = site();
  s.product({}, s.family());
  return s;
}

describe('offers across a restart', () => {
  it('are replayed from the journal with their archiving and handles', async () => {
    const first = await openSite();
    expect(
      (await first.send('POST', '/product_families.json', { product_family: { name: 'F' } })).status,
    ).toBe(201);
    const product = { product: { name: 'P', price_in_cents: 100, interval: 1, interval_unit: 'month' } };
    expect((await first.send('POST', '/product_families/1/products.json', product)).status).toBe(201);
    for (const handle of ['one', 'two'])
      expect((await first.send('POST', '/offers.json', offer(handle))).status).toBe(201);
    expect((await first.send('PUT', '/offers/1/archive.json')).status).toBe(200);
    const listed = await first.send('GET', '/offers.json?include_archived=true');
    await first.store.close();

    const second = await openSite();
    expect(await second.send('GET', '/offers.json?include_archived=true')).toEqual(listed);
    expect((await second.send('GET', '/offers.json')).body).toMatchObject({ offers: [{ handle: 'two' }] });
    expect((await second.send('GET', '/offers/handle:one.json')).status).toBe(200);
    expect((await second.send('POST', '/offers.json', offer('one'))).status).toBe(422);
    expect((await second.send('POST', '/offers.json', offer('three'))).body).toMatchObject({
      offer: { id: 3 },
    });
    await second.store.close();
  });

  it('are read back from a snapshot', async () => {
    const s = withProduct();
    s.ok('POST', '/offers.json', offer('kept'));
    await writeSnapshot(served.dir(), { position: 1, state: s.state });
    const read = await readSnapshot(served.dir());
    if (!read.ok || read.value === undefined) throw new Error('no snapshot');
    const loaded = read.value.state;
    expect(call(loaded, 'GET', '/offers.json').body).toEqual(s.ok('GET', '/offers.json'));
    expect(call(loaded, 'GET', '/offers/handle:kept.json').status).toBe(200);
  });

  it('a snapshot from before offers loads with none, and offers can then be kept', async () => {
    const s = withProduct();
    const { offers: _offers, ...tables } = s.state.tables;
    const { offerHandles: _handles, ...indexes } = s.state.indexes;
    const older = { ...s.state, tables, indexes } as unknown as SiteState;
    await writeSnapshot(served.dir(), { position: 1, state: older });
    const read = await readSnapshot(served.dir());
    if (!read.ok || read.value === undefined) throw new Error('no snapshot');
    const state = read.value.state;
    expect(call(state, 'GET', '/offers.json').body).toEqual({ offers: [] });
    const created = call(state, 'POST', '/offers.json', offer('first'));
    expect(created.status).toBe(201);
    expect(call(created.state, 'GET', '/offers/handle:first.json').status).toBe(200);
    expect(call(created.state, 'POST', '/offers.json', offer('first')).status).toBe(422);
  });
});
