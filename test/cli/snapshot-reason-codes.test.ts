/**
 * Reason codes outlive a restart: replayed from the journal, read back from a snapshot, and a snapshot
 * written before the table existed loads with it empty and ready for codes.
 */
import { describe, expect, it } from 'vitest';
import { readSnapshot, writeSnapshot } from '../../src/cli/snapshot.js';
import type { SiteState } from '../../src/engine/state.js';
import { call, site } from '../helpers/api.js';
import { dataDirSite } from '../helpers/data-dir-site.js';

const served = dataDirSite('billing-core-reason-codes-', 'reason-key');
const openSite = served.open;

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
    await writeSnapshot(served.dir(), { position: 1, state: s.state });
    const read = await readSnapshot(served.dir());
    if (!read.ok || read.value === undefined) throw new Error('no snapshot');
    const loaded = read.value.state;
    expect(call(loaded, 'GET', '/reason_codes.json').body).toEqual(s.ok('GET', '/reason_codes.json'));
  });

  it('a snapshot from before reason codes loads with none, and codes can then be kept', async () => {
    const s = site();
    const { reasonCodes: _codes, ...tables } = s.state.tables;
    await writeSnapshot(served.dir(), { position: 1, state: { ...s.state, tables } as unknown as SiteState });
    const read = await readSnapshot(served.dir());
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
