/**
 * Offers outlive a restart: replayed from the journal (archiving and the handle index included), read
 * back from a snapshot, and a snapshot written before the table existed loads with it empty and ready.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFetchHandler } from '../../src/adapters/fetch.js';
import { openStore } from '../../src/cli/data-dir.js';
import { readSnapshot, writeSnapshot } from '../../src/cli/snapshot.js';
import type { SiteState } from '../../src/engine/state.js';
import { basicAuth, call, site } from '../helpers/api.js';

const KEY = 'offer-key';
const headers = { authorization: basicAuth(`${KEY}:x`), 'content-type': 'application/json' };
const offer = (handle: string) => ({ offer: { name: handle, handle, product_id: 1 } });

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'billing-core-offers-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function openSite() {
  const opened = await openStore(dir, { site: { apiKeys: [KEY] }, snapshotEvery: 1000 });
  if (!opened.ok) throw new Error(opened.error);
  const store = opened.value;
  const app = createFetchHandler({
    state: store.state,
    now: () => '2026-02-01T00:00:00Z',
    commit: store.commit,
  });
  const send = async (method: string, path: string, body?: unknown) => {
    const response = await app(
      new Request(`http://localhost${path}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    );
    return { status: response.status, body: (await response.json()) as unknown };
  };
  return { store, send };
}

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
    await writeSnapshot(dir, { position: 1, state: s.state });
    const read = await readSnapshot(dir);
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
    await writeSnapshot(dir, { position: 1, state: older });
    const read = await readSnapshot(dir);
    if (!read.ok || read.value === undefined) throw new Error('no snapshot');
    const state = read.value.state;
    expect(call(state, 'GET', '/offers.json').body).toEqual({ offers: [] });
    const created = call(state, 'POST', '/offers.json', offer('first'));
    expect(created.status).toBe(201);
    expect(call(created.state, 'GET', '/offers/handle:first.json').status).toBe(200);
    expect(call(created.state, 'POST', '/offers.json', offer('first')).status).toBe(422);
  });
});
