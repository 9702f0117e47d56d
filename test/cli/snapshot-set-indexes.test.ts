/** A snapshot written before the set indexes existed loads with them built from its tables. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readSnapshot, writeSnapshot } from '../../src/cli/snapshot.js';
import type { SiteState } from '../../src/engine/state.js';
import { emptyIndex, indexEntries, indexSet, type ShardedIndex } from '../../src/kernel/collection.js';
import { type IdKeyedIndex, idKeyedEntries } from '../../src/kernel/id-keyed.js';
import { idSetToArray, loadedIdSet, type StoredIdSet } from '../../src/kernel/id-set.js';
import { call } from '../helpers/api.js';
import { busySite } from '../helpers/scenarios.js';

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'billing-core-snapshot-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('snapshots and set indexes', () => {
  it('an old snapshot without set indexes gets them, equal to the ones kept by evolve', async () => {
    const state = busySite();
    const { setIndexes: _dropped, ...old } = state;
    await writeSnapshot(dir, { position: 3, state: old as unknown as SiteState });
    const read = await readSnapshot(dir);
    if (!read.ok || read.value === undefined) throw new Error('no snapshot');
    expect(read.value.state.setIndexes).toStrictEqual(state.setIndexes);
    const listed = call(read.value.state, 'GET', '/subscriptions.json?state=active');
    expect(listed.body).toEqual(call(state, 'GET', '/subscriptions.json?state=active').body);
  });

  it('a snapshot with them loads them as written', async () => {
    const state = busySite();
    await writeSnapshot(dir, { position: 0, state });
    const read = await readSnapshot(dir);
    if (!read.ok || read.value === undefined) throw new Error('no snapshot');
    expect(read.value.state).toStrictEqual(JSON.parse(JSON.stringify(state)));
  });

  it('an old snapshot whose list indexes hold arrays of ids gets them as id sets, equal to the ones evolve keeps', async () => {
    const state = busySite();
    // Then every list was sharded and keyed by text, references as well as ids.
    const asArrays = (index: object): ShardedIndex<number[]> => {
      const entries = Object.hasOwn(index, 'groups')
        ? indexEntries(index as ShardedIndex<StoredIdSet>)
        : idKeyedEntries(index as IdKeyedIndex<StoredIdSet>);
      let arrays = emptyIndex<number[]>();
      for (const [key, ids] of entries)
        arrays = indexSet(arrays, String(key), idSetToArray(loadedIdSet(ids)));
      return arrays;
    };
    const listIndexes = Object.fromEntries(
      Object.entries(state.listIndexes).map(([name, index]: [string, object]) => [name, asArrays(index)]),
    );
    await writeSnapshot(dir, { position: 2, state: { ...state, listIndexes } as unknown as SiteState });
    const read = await readSnapshot(dir);
    if (!read.ok || read.value === undefined) throw new Error('no snapshot');
    expect(read.value.state.listIndexes).toStrictEqual(JSON.parse(JSON.stringify(state.listIndexes)));
    const customer = call(state, 'GET', '/customers.json').body;
    const id = (customer as { customer: { id: number } }[])[0]!.customer.id;
    const path = `/customers/${id}/subscriptions.json`;
    expect(call(read.value.state, 'GET', path).body).toEqual(call(state, 'GET', path).body);
  });
});
