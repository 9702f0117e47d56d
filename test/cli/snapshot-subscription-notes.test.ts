/**
 * A snapshot written before subscription notes and reference lookups existed loads with an empty notes
 * table and its list indexes rebuilt, so references written then are found and notes can be kept.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readSnapshot, writeSnapshot } from '../../src/cli/snapshot.js';
import type { SiteState } from '../../src/engine/state.js';
import { call, num, site } from '../helpers/api.js';

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'billing-core-snapshot-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('snapshots from before subscription notes', () => {
  it('load with an empty notes table and the reference lookup rebuilt', async () => {
    const s = site();
    const id = num(
      s.subscribe({
        product_id: s.product(),
        customer_id: s.customer(),
        payment_collection_method: 'remittance',
        reference: 'old-ref',
      }),
      'subscription',
      'id',
    );
    const { subscriptionNotes: _notes, ...tables } = s.state.tables;
    const {
      subscriptionReferences: _references,
      subscriptionNotes: _noteLists,
      ...listIndexes
    } = s.state.listIndexes;
    const old = { ...s.state, tables, listIndexes } as unknown as SiteState;
    await writeSnapshot(dir, { position: 1, state: old });
    const read = await readSnapshot(dir);
    if (!read.ok || read.value === undefined) throw new Error('no snapshot');
    const state = read.value.state;
    expect(state.listIndexes).toStrictEqual(JSON.parse(JSON.stringify(s.state.listIndexes)));
    expect(
      num(call(state, 'GET', '/subscriptions/lookup.json?reference=old-ref').body, 'subscription', 'id'),
    ).toBe(id);
    const note = call(state, 'POST', `/subscriptions/${id}/notes.json`, {
      note: { body: 'kept', sticky: false },
    });
    expect(note.status).toBe(201);
  });
});
