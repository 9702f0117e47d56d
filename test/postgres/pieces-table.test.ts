/**
 * The pieces table against a real PostgreSQL: random versions of a value, each sharing what it did not
 * change with the one before (as states do), are written as their changed pieces only; read back after
 * every step, the table gives the latest version (its keys in the order a `PieceAssembler` fed the same
 * pieces gives them), and holds exactly its pieces.
 */

import { describe, expect, it } from 'vitest';
import { migrate } from '../../src/adapters/postgres/migrate.js';
import { readPieces, writePieces } from '../../src/adapters/postgres/pieces-table.js';
import { inTransaction } from '../../src/adapters/postgres/sql.js';
import { changedPieceLines, PieceAssembler, pieceLines } from '../../src/engine/persistence/pieces.js';
import { expectCurrentPieces } from './current-pieces.js';
import { usePostgres } from './server.js';

const pg = usePostgres();

type Value = unknown;

/** A small deterministic generator, so that a failure can be replayed from its seed. */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
  const below = (n: number) => Math.floor(next() * n);
  const leaf = (): Value =>
    [below(100), `s${below(50)}`, null, true, { k: below(9) }, [below(5), below(5)]][below(6)];
  const tree = (depth: number): Value => {
    if (depth === 0 || next() < 0.3) return leaf();
    if (next() < 0.4)
      return Array.from({ length: below(4) }, () => (next() < 0.5 ? [leaf()] : tree(depth - 1)));
    return Object.fromEntries(Array.from({ length: below(4) }, () => [`k${below(8)}`, tree(depth - 1)]));
  };
  return { next, below, tree };
}

/** A copy of `value` with the member at `path` set (or deleted), sharing everything else. */
function setIn(value: Value, path: readonly (string | number)[], member: Value | undefined): Value {
  const [head, ...rest] = path;
  if (head === undefined) return member;
  if (Array.isArray(value)) {
    const copy = [...value];
    const index = Number(head) % Math.max(1, copy.length);
    if (rest.length === 0 && member === undefined) copy.splice(index, 1);
    else copy[index] = setIn(copy[index], rest, member);
    return copy;
  }
  const object = typeof value === 'object' && value !== null ? { ...value } : {};
  if (rest.length === 0 && member === undefined) Reflect.deleteProperty(object, String(head));
  else Reflect.set(object, String(head), setIn(Reflect.get(object, String(head)), rest, member));
  return object;
}

/** A random path into a value, through what is there, perhaps one step further. */
function pathInto(value: Value, random: ReturnType<typeof generator>): (string | number)[] {
  const path: (string | number)[] = [];
  let at = value;
  while (typeof at === 'object' && at !== null && random.next() < 0.7) {
    const keys = Array.isArray(at) ? at.map((_, index) => index) : Object.keys(at);
    const key =
      keys.length === 0 || random.next() < 0.2 ? `k${random.below(8)}` : keys[random.below(keys.length)];
    if (key === undefined || (Array.isArray(at) && typeof key === 'string')) break;
    path.push(key);
    at = Reflect.get(at, key);
  }
  return path.length === 0 ? [`k${random.below(8)}`] : path;
}

/** Fails the test when a site's stored piece rows are not current for `value`. */
async function expectStoredPiecesCurrent(site: string, value: unknown): Promise<void> {
  const rows = await pg
    .pool()
    .query<{ line: string }>('SELECT line FROM billing_core_pieces WHERE subdomain = $1', [site]);
  expectCurrentPieces(
    rows.rows.map((row) => row.line),
    value,
  );
}

describe('the pieces table', () => {
  it('gives back the latest of random versions written as changed pieces only', async () => {
    await migrate(pg.pool());
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const random = generator(seed);
      const site = `pieces-${seed}`;
      let value: Value = { root: random.tree(4), list: [[1], [2], [3]] };
      let ord = await inTransaction(pg.pool(), (client) => writePieces(client, site, pieceLines(value), 0));
      const copy = new PieceAssembler();
      for (const line of pieceLines(value)) copy.add(line);
      for (let step = 0; step < 60; step += 1) {
        const path = pathInto(value, random);
        const next = setIn(value, path, random.next() < 0.2 ? undefined : random.tree(3));
        if (typeof next !== 'object' || next === null || Array.isArray(next)) continue;
        const previous = value;
        value = next;
        const changed = [...changedPieceLines(previous, value)];
        ord = await inTransaction(pg.pool(), (client) => writePieces(client, site, changed, ord));
        for (const line of changed) copy.add(line);
        const read = await readPieces(pg.pool(), site);
        expect(read, `seed ${seed} step ${step}`).toEqual(value);
        // Keys in the order a copy kept in memory from the same pieces has them.
        expect(JSON.stringify(read), `seed ${seed} step ${step}`).toBe(JSON.stringify(copy.value()));
      }
      await expectStoredPiecesCurrent(site, value);
    }
  });

  it('gives back a large row changed inside a chunk: sets of ids that grow, appear and go', async () => {
    await migrate(pg.pool());
    for (const seed of [7, 8, 9]) {
      const random = generator(seed);
      const site = `large-rows-${seed}`;
      const ids = (count: number) => Array.from({ length: count }, () => random.below(1_000_000));
      /** A row of an index's hash group: a set of ids per key, large enough to be written by its parts. */
      const group = (): Record<string, number[][]> => ({ 'k:a': [ids(900)], 'k:b': [ids(300)] });
      let value: { rows: { chunks: unknown[][] } } = { rows: { chunks: [[{ id: 1 }, group(), { id: 3 }]] } };
      let ord = await inTransaction(pg.pool(), (client) => writePieces(client, site, pieceLines(value), 0));
      for (let step = 0; step < 40; step += 1) {
        const chunk = value.rows.chunks[0] ?? [];
        const large = { ...(chunk[1] as Record<string, number[][]>) };
        const key = `k:${'abcd'[random.below(4)]}`;
        const choice = random.below(4);
        if (choice === 0) Reflect.deleteProperty(large, key);
        else if (choice === 1) large[key] = [...(large[key] ?? []), ids(1 + random.below(400))];
        else if (choice === 2) large[key] = [ids(1 + random.below(50))];
        const replaced = [...chunk];
        replaced[1] = large;
        if (choice === 3) replaced[random.below(2) * 2] = { id: random.below(100) };
        const previous = value;
        value = { rows: { chunks: [replaced] } };
        const changed = [...changedPieceLines(previous, value)];
        ord = await inTransaction(pg.pool(), (client) => writePieces(client, site, changed, ord));
        const read = await readPieces(pg.pool(), site);
        // Equal, and with every key in the order the running version has it.
        expect(JSON.stringify(read), `seed ${seed} step ${step}`).toBe(JSON.stringify(value));
      }
      await expectStoredPiecesCurrent(site, value);
    }
  });
});
