/**
 * Custom fields survive persistence: a snapshot written before they existed loads with their tables and
 * indexes empty, and metafields and values written through a data directory come back the same from its
 * journal and from its snapshots.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFetchHandler, type SiteFetchHandler } from '../../src/adapters/fetch.js';
import { openStore, type Store } from '../../src/cli/data-dir.js';
import { readSnapshot, writeSnapshot } from '../../src/cli/snapshot.js';
import type { SiteState } from '../../src/engine/state.js';
import { basicAuth, call, num, site } from '../helpers/api.js';
import { createCustomer } from './site-requests.js';

const KEY = 'custom-field-key';
const headers = { authorization: basicAuth(`${KEY}:x`), 'content-type': 'application/json' };

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'billing-core-custom-fields-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('snapshots from before custom fields', () => {
  it('load with empty metafield and metadata tables and indexes', async () => {
    const s = site();
    const customer = s.customer();
    const { metafields: _fields, metadata: _values, ...tables } = s.state.tables;
    const { metafieldNames: _names, ...indexes } = s.state.indexes;
    const {
      resourceTypeMetafields: _a,
      resourceMetadata: _b,
      metafieldMetadata: _c,
      resourceTypeMetadata: _d,
      resourceTypeRemovedMetadata: _e,
      ...listIndexes
    } = s.state.listIndexes;
    const old = { ...s.state, tables, indexes, listIndexes } as unknown as SiteState;
    await writeSnapshot(dir, { position: 1, state: old });
    const read = await readSnapshot(dir);
    if (!read.ok || read.value === undefined) throw new Error('no snapshot');
    const state = read.value.state;
    expect(state.tables.metafields).toStrictEqual(JSON.parse(JSON.stringify(s.state.tables.metafields)));
    expect(state.listIndexes).toStrictEqual(JSON.parse(JSON.stringify(s.state.listIndexes)));
    const set = call(state, 'POST', `/customers/${customer}/metadata.json`, {
      metadata: { name: 'Size', value: 'L' },
    });
    expect(set.status).toBe(201);
  });
});

async function open(snapshotEvery?: number): Promise<{ store: Store; app: SiteFetchHandler }> {
  const opened = await openStore(dir, {
    site: { apiKeys: [KEY], timeZone: 'UTC' },
    warn: () => undefined,
    ...(snapshotEvery === undefined ? {} : { snapshotEvery }),
  });
  if (!opened.ok) throw new Error(opened.error);
  const store = opened.value;
  const app = createFetchHandler({
    state: store.state,
    now: () => '2026-02-01T00:00:00Z',
    commit: store.commit,
  });
  return { store, app };
}

const send = (app: SiteFetchHandler, method: string, path: string, body?: unknown) =>
  app(
    new Request(`http://localhost${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
  );

/** A customer with two values, one of them then removed, and a field renamed. */
async function customFields(app: SiteFetchHandler): Promise<number> {
  const customer = num(await (await createCustomer(app, headers, 1)).json(), 'customer', 'id');
  const path = `/customers/${customer}/metadata.json`;
  expect(
    (
      await send(app, 'POST', path, {
        metadata: [
          { name: 'a', value: '1' },
          { name: 'b', value: '2' },
        ],
      })
    ).status,
  ).toBe(201);
  expect((await send(app, 'DELETE', `${path}?name=a`)).status).toBe(200);
  expect(
    (await send(app, 'PUT', '/customers/metafields.json', { metafields: { current_name: 'b', name: 'c' } }))
      .status,
  ).toBe(200);
  return customer;
}

describe('custom fields in a data directory', () => {
  it.each([
    ['the journal', undefined],
    ['a snapshot', 2],
  ])('come back the same from %s', async (_from, snapshotEvery) => {
    const first = await open(snapshotEvery);
    const customer = await customFields(first.app);
    const state = first.app.state();
    await first.store.close(snapshotEvery === undefined ? undefined : state);
    const second = await open(snapshotEvery);
    expect(second.store.state).toEqual(state);
    const listed = await (await send(second.app, 'GET', '/customers/metadata.json?with_deleted=true')).json();
    expect(listed).toMatchObject({ total_count: 2, metadata: [{ name: 'a' }, { name: 'c', value: '2' }] });
    const again = await send(second.app, 'POST', `/customers/${customer}/metadata.json`, {
      metadata: { name: 'a', value: '3' },
    });
    expect(await again.json()).toMatchObject([{ id: 1, value: '3' }]);
    await second.store.close();
  });
});
