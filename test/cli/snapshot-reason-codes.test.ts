/**
 * Reason codes outlive a restart: replayed from the journal, read back from a snapshot, and a snapshot
 * written before the table existed loads with it empty and ready for codes.
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

const KEY = 'reason-key';
const headers = { authorization: basicAuth(`${KEY}:x`), 'content-type': 'application/json' };

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'billing-core-reason-codes-'));
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

describe('reason codes across a restart', () => {
  it('are replayed from the journal with their updates and deletions', async () => {
    const first = await openSite();
    for (const code of ['PRICE', 'MOVED', 'OTHER'])
      expect(
        (await first.send('POST', '/reason_codes.json', { reason_code: { code, description: code } })).status,
      ).toBe(201);
    expect((await first.send('PUT', '/reason_codes/2.json', { reason_code: { position: 1 } })).status).toBe(
      200,
    );
    expect((await first.send('DELETE', '/reason_codes/3.json')).status).toBe(200);
    const listed = await first.send('GET', '/reason_codes.json');
    await first.store.close();

    const second = await openSite();
    expect(await second.send('GET', '/reason_codes.json')).toEqual(listed);
    expect(
      (
        await second.send('POST', '/reason_codes.json', {
          reason_code: { code: 'PRICE', description: 'again' },
        })
      ).status,
    ).toBe(422);
    expect(
      (await second.send('POST', '/reason_codes.json', { reason_code: { code: 'NEW', description: 'x' } }))
        .body,
    ).toMatchObject({
      reason_code: { id: 4, position: 2 },
    });
    await second.store.close();
  });

  it('are read back from a snapshot', async () => {
    const s = site();
    s.ok('POST', '/reason_codes.json', {
      reason_code: { code: 'PRICE', description: 'Too expensive', position: 4 },
    });
    await writeSnapshot(dir, { position: 1, state: s.state });
    const read = await readSnapshot(dir);
    if (!read.ok || read.value === undefined) throw new Error('no snapshot');
    const loaded = read.value.state;
    expect(call(loaded, 'GET', '/reason_codes.json').body).toEqual(s.ok('GET', '/reason_codes.json'));
  });

  it('a snapshot from before reason codes loads with none, and codes can then be kept', async () => {
    const s = site();
    const { reasonCodes: _codes, ...tables } = s.state.tables;
    await writeSnapshot(dir, { position: 1, state: { ...s.state, tables } as unknown as SiteState });
    const read = await readSnapshot(dir);
    if (!read.ok || read.value === undefined) throw new Error('no snapshot');
    const state = read.value.state;
    expect(call(state, 'GET', '/reason_codes.json').body).toEqual([]);
    const created = call(state, 'POST', '/reason_codes.json', {
      reason_code: { code: 'A', description: 'a' },
    });
    expect(created.status).toBe(201);
    expect(call(created.state, 'GET', '/reason_codes/1.json').status).toBe(200);
  });
});
