/**
 * A site whose event log is long enough that its later chunks sit in groups (`more`), beside the same site
 * as an earlier version saved it, every chunk of every list in `chunks`: both load, run on alike and
 * snapshot as pieces that give each back.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { changedPieceLines, PieceAssembler, pieceLines } from '../../src/engine/persistence/pieces.js';
import { advance, handle, type SiteState, upgradeState } from '../../src/index.js';
import { CHUNK_SIZE, GROUP_SIZE, listToArray } from '../../src/kernel/collection.js';
import { site } from '../helpers/api.js';

/** Every list with groups written back with all its chunks in `chunks`, as saved before the groups. */
function savedFlat(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(savedFlat);
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value).map(([key, member]) => [key, savedFlat(member)] as const);
  const object = Object.fromEntries(entries) as Record<string, unknown>;
  const { more, ...rest } = object;
  if (!Array.isArray(more) || !Array.isArray(rest['chunks'])) return object;
  return { ...rest, chunks: [...(rest['chunks'] as unknown[]), ...(more as unknown[][]).flat(1)] };
}

const NOW = '2026-01-15T12:00:00Z';
const SIGNUPS = 8_200;

let built: SiteState;
beforeAll(() => {
  const s = site({}, NOW);
  const product = s.product({ price_in_cents: 1500 });
  let state = s.state;
  for (let n = 0; n < SIGNUPS; n += 1) {
    const request = {
      method: 'POST',
      path: '/subscriptions.json',
      body: {
        subscription: {
          product_id: product,
          customer_attributes: { first_name: 'Ada', last_name: `N${n}`, email: `ada${n}@example.com` },
          credit_card_attributes: {
            full_number: '4111111111111111',
            expiration_month: 12,
            expiration_year: 2030,
          },
        },
      },
    };
    const result = handle(state, request, { now: NOW });
    expect(result.response.status).toBe(201);
    state = result.state;
  }
  built = state;
}, 120_000);

/** The same requests on a state: a signup, a renewal day, a page of the log; the answers and the state. */
function runOn(start: SiteState): { answers: string; state: SiteState } {
  const signup = handle(
    start,
    {
      method: 'POST',
      path: '/subscriptions.json',
      body: {
        subscription: {
          product_id: 1,
          customer_attributes: { first_name: 'Grace', last_name: 'H', email: 'grace@example.com' },
          credit_card_attributes: {
            full_number: '4111111111111111',
            expiration_month: 12,
            expiration_year: 2030,
          },
        },
      },
    },
    { now: NOW },
  );
  const renewed = advance(signup.state, { now: '2026-02-16T00:00:00Z' });
  const page = handle(
    renewed.state,
    { method: 'GET', path: '/events.json?per_page=50&direction=desc' },
    { now: '2026-02-16T00:00:00Z' },
  );
  return {
    answers: JSON.stringify([signup.response, renewed.events.length, page.response]),
    state: renewed.state,
  };
}

describe('lists in groups of chunks, in a running site', () => {
  it('the event log holds its later chunks in groups; a site saved with every chunk in `chunks` runs on alike', () => {
    expect(built.events.length).toBeGreaterThan(GROUP_SIZE * CHUNK_SIZE);
    expect(built.events.chunks.length).toBe(GROUP_SIZE);
    expect(built.events.more?.length).toBeGreaterThan(0);
    const saved = JSON.stringify(savedFlat(JSON.parse(JSON.stringify(built))));
    const flat = upgradeState(JSON.parse(saved) as SiteState);
    expect(flat.events.more).toBeUndefined();
    expect(flat.events.chunks.length).toBeGreaterThan(GROUP_SIZE);

    const grouped = runOn(built);
    const fromFlat = runOn(flat);
    expect(fromFlat.answers).toBe(grouped.answers);
    expect(listToArray(fromFlat.state.events)).toEqual(listToArray(grouped.state.events));
    // The chunks the flat list held stay where they were; the ones it gained go to its groups.
    expect(fromFlat.state.events.chunks.length).toBe(flat.events.chunks.length);
    expect(JSON.stringify(savedFlat(JSON.parse(JSON.stringify(fromFlat.state))))).toBe(
      JSON.stringify(savedFlat(JSON.parse(JSON.stringify(grouped.state)))),
    );
  }, 60_000);

  it('snapshot pieces give back a saved-flat site and, with the changed pieces, its next version', () => {
    const flat = upgradeState(
      JSON.parse(JSON.stringify(savedFlat(JSON.parse(JSON.stringify(built))))) as SiteState,
    );
    const next = runOn(flat).state;
    const copy = new PieceAssembler();
    for (const line of pieceLines(flat)) copy.add(line);
    expect(JSON.stringify(copy.value())).toBe(JSON.stringify(flat));
    for (const line of changedPieceLines(flat, next)) copy.add(line);
    expect(JSON.stringify(copy.value())).toBe(JSON.stringify(next));
  }, 60_000);
});
