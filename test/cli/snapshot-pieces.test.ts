/**
 * Snapshots as pieces (a site of a million subscriptions, first step): no string of the whole state is
 * built, so a site past V8's 512 MiB string limit (about 88,000 subscriptions) can still be snapshotted.
 * Each line is one piece of bounded size; the pieces give back an equal state. A snapshot written in
 * the earlier whole-JSON format still loads.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readSnapshot, SNAPSHOT_FILE, writeSnapshot } from '../../src/cli/snapshot.js';
import { applyChanges } from '../../src/engine/changes.js';
import {
  changedPieceLines,
  changedPieces,
  PieceAssembler,
  pieceLines,
  pieces,
  piecesText,
} from '../../src/engine/persistence/pieces.js';
import { createSite, type SiteState } from '../../src/index.js';
import {
  CHUNK_SIZE,
  type ChunkedList,
  emptyList,
  GROUP_SIZE,
  listAppendAll,
  listChunks,
  listFromArray,
  listGet,
  listSet,
} from '../../src/kernel/collection.js';
import { commandSequenceArbitrary, simulate, simulationConfig } from '../../src/testing/index.js';
import { site } from '../helpers/api.js';

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'billing-core-pieces-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A site with a few thousand rows, renewals and an event log: chunked tables and lists of every kind. */
function busySite() {
  const s = site();
  const product = s.product({ price_in_cents: 1500 });
  for (let n = 0; n < 60; n += 1) s.subscribed(product);
  s.advance('2026-03-20T12:00:00Z');
  return s.state;
}

/**
 * Feeds `copy` the changed lines from `previous` to `next`, checks that it then equals `next`, and answers
 * the characters and lines that were written.
 */
function followChange(
  copy: PieceAssembler,
  previous: unknown,
  next: unknown,
): { written: number; lines: number } {
  const lines = [...changedPieceLines(previous, next)];
  for (const line of lines) copy.add(line);
  expect(copy.value()).toEqual(JSON.parse(JSON.stringify(next)));
  return { written: lines.reduce((sum, line) => sum + line.length, 0), lines: lines.length };
}

describe('snapshot pieces', () => {
  it('give back a state equal to a JSON round trip, and split chunked collections into bounded lines', () => {
    const state = busySite();
    const lines = [...pieceLines(state)];
    const assembler = new PieceAssembler();
    for (const line of lines) assembler.add(line);
    expect(assembler.value()).toEqual(JSON.parse(JSON.stringify(state)));
    expect(lines.length).toBeGreaterThan(50);
    // A piece is at most one chunk (1,000 rows, none of them a list of chunks), whatever the site's size.
    const oversized = lines.filter((line) => {
      const [, value] = JSON.parse(line) as [unknown, unknown];
      return Array.isArray(value) && (value.length > 1000 || value.some((member) => Array.isArray(member)));
    });
    expect(oversized).toEqual([]);
  });

  it('never stringify the whole state, nor any array longer than a chunk', () => {
    const rows = Array.from({ length: 5_000 }, (_, id) => ({ id, name: `row ${id}` }));
    const state = { schema: 1, big: rows, nested: { chunks: [rows.slice(0, 1000), rows.slice(1000, 2000)] } };
    const stringified: unknown[] = [];
    const original = JSON.stringify;
    JSON.stringify = ((value: unknown, ...rest: never[]) => {
      stringified.push(Array.isArray(value) ? value[1] : value);
      return original(value, ...rest);
    }) as typeof JSON.stringify;
    let lines: string[];
    try {
      lines = [...pieceLines(state)];
    } finally {
      JSON.stringify = original;
    }
    expect(stringified).not.toContain(state);
    expect(stringified).not.toContain(rows);
    const assembler = new PieceAssembler();
    for (const line of lines) assembler.add(line);
    expect(assembler.value()).toEqual(state);
  });

  it('keep keys such as __proto__ as plain properties, as JSON.parse does', () => {
    const state: unknown = JSON.parse('{"a":{"__proto__":{"polluted":true},"b":[[1],[2]]}}');
    const assembler = new PieceAssembler();
    for (const line of pieceLines(state)) assembler.add(line);
    const value = assembler.value();
    expect(value).toEqual(state);
    expect(Object.getPrototypeOf(Reflect.get(value as object, 'a'))).toBe(Object.prototype);
  });
});

describe('the text of pieces', () => {
  const linesText = (lines: Iterable<string>) => [...lines].map((line) => `${line}\n`).join('');

  it('is their lines byte for byte, with what JSON leaves out or writes as null, in parts of a few rows', () => {
    const rows = Array.from({ length: 1000 }, (_, id) => ({
      id,
      name: `rów ${id} ✓ 😀`,
      gone: undefined,
      said: id % 2 === 0 ? null : 'x'.repeat(id % 50),
    }));
    const odd = {
      rows: [rows, rows.slice(0, 300)],
      members: [1, undefined, () => 1, Symbol('s'), 'é€'],
      object: { x: undefined, y: () => 1, 10: 'ten', 2: 'two', when: new Date(0) },
      dates: [new Date(0), new Date(1)],
    };
    for (const value of [busySite(), odd]) {
      const parts = [...piecesText(pieces(value))];
      expect(parts.join('')).toBe(linesText(pieceLines(value)));
    }
    // A chunk of 1,000 rows of ~80 characters is about 80,000 characters of JSON: never one part.
    const longest = Math.max(...[...piecesText(pieces(odd))].map((part) => part.length));
    expect(longest).toBeLessThan(20_000);
  });

  it('of the changed pieces is their lines byte for byte, deletions included', () => {
    const previous = busySite();
    const s = site();
    const product = s.product({ price_in_cents: 900 });
    for (let n = 0; n < 30; n += 1) s.subscribed(product);
    const next = { ...s.state, tables: { ...s.state.tables }, gone: undefined };
    const before = { ...previous, removed: { a: 1 } };
    expect([...piecesText(changedPieces(before, next))].join('')).toBe(
      linesText(changedPieceLines(before, next)),
    );
    expect(linesText(changedPieceLines(before, next))).toContain('[["removed"]]\n');
  });

  it('crossing the write buffer, in several megabytes of text of every width, reads back as written', async () => {
    const rows = Array.from({ length: 1000 }, (_, id) => ({ id, text: `${'aé€😀'.repeat(400)} ${id}` }));
    const state = { ...busySite(), extra: { chunks: [rows, rows, rows] } };
    await writeSnapshot(dir, { position: 3, state });
    const text = await readFile(join(dir, SNAPSHOT_FILE), 'utf8');
    expect(text.length).toBeGreaterThan(3 << 20);
    expect(text.slice(0, text.lastIndexOf('\n', text.length - 2) + 1)).toBe(linesText(pieceLines(state)));
    const read = await readSnapshot(dir);
    expect(read).toMatchObject({ ok: true, value: { position: 3 } });
    expect(read.ok && read.value?.state).toEqual(JSON.parse(JSON.stringify(state)));
  });
});

describe('snapshot files', () => {
  it('round-trip a site through a version 2 file, and report a damaged one', async () => {
    const state = busySite();
    await writeSnapshot(dir, { position: 42, state });
    const text = await readFile(join(dir, SNAPSHOT_FILE), 'utf8');
    expect(text.startsWith('[[],{}]\n')).toBe(true);
    expect(JSON.parse(text.trimEnd().split('\n').at(-1) ?? '')).toMatchObject({ version: 2, position: 42 });
    const read = await readSnapshot(dir);
    expect(read).toMatchObject({
      ok: true,
      value: { position: 42, state: JSON.parse(JSON.stringify(state)) },
    });

    const bytes = await readFile(join(dir, SNAPSHOT_FILE));
    const middle = Math.floor(bytes.length / 2);
    bytes.writeUInt8(bytes.readUInt8(middle) ^ 0x01, middle);
    await writeFile(join(dir, SNAPSHOT_FILE), bytes);
    const damaged = await readSnapshot(dir);
    expect(damaged.ok).toBe(false);
  });

  it('still read a version 1 snapshot (a header line, then the whole JSON)', async () => {
    const state = busySite();
    const body = Buffer.from(JSON.stringify(state), 'utf8');
    const header = {
      format: 'billing-core-snapshot',
      version: 1,
      position: 7,
      bytes: body.length,
      crc32: crc32(body),
    };
    await writeFile(
      join(dir, SNAPSHOT_FILE),
      Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`), body]),
    );
    const read = await readSnapshot(dir);
    expect(read).toMatchObject({
      ok: true,
      value: { position: 7, state: JSON.parse(JSON.stringify(state)) },
    });
  });
});

describe('changed pieces', () => {
  it('law: a copy kept from the full pieces and then only the changed ones equals the site after every request', () => {
    let steps = 0;
    let written = 0;
    let whole = 0;
    fc.assert(
      fc.property(commandSequenceArbitrary({ minLength: 120, maxLength: 120 }), (commands) => {
        const run = simulate(simulationConfig(), commands);
        let previous: SiteState | undefined;
        const copy = new PieceAssembler();
        let state = createSite(simulationConfig());
        for (const line of pieceLines(state)) copy.add(line);
        for (const step of run.steps) {
          previous = state;
          state = applyChanges(state, step.changes);
          const lines = [...changedPieceLines(previous, state)];
          for (const line of lines) copy.add(line);
          expect(copy.value()).toEqual(JSON.parse(JSON.stringify(state)));
          steps += 1;
          written += lines.reduce((sum, line) => sum + line.length, 0);
          whole += JSON.stringify(state).length;
        }
      }),
      { seed: 20_261_128, numRuns: 2 },
    );
    expect(steps).toBeGreaterThan(200);
    // What a change writes is a small part of the site, not a copy of it.
    expect(written).toBeLessThan(whole / 5);
  });

  it('law: a list of chunks that grows, rows replaced, a large row changed inside: the copy equals the next version and only what changed is written', () => {
    type Row = { readonly id: number; readonly name: string; readonly ids?: ChunkedList<number> };
    const rowArbitrary = (id: number): Row => ({ id, name: `row ${id}` });
    const change = fc.oneof(
      fc.record({ kind: fc.constant('append' as const), count: fc.integer({ min: 1, max: 1500 }) }),
      fc.record({ kind: fc.constant('replace' as const), at: fc.nat() }),
      fc.record({ kind: fc.constant('grow' as const), count: fc.integer({ min: 1, max: 700 }) }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2500 }), fc.array(change, { maxLength: 6 }), (start, changes) => {
        // Row 0 is large: a list of ids, as an index's set is.
        const first: Row = {
          ...rowArbitrary(0),
          ids: listFromArray(Array.from({ length: 1500 }, (_, n) => n)),
        };
        let state = {
          rows: listFromArray([first, ...Array.from({ length: start }, (_, n) => rowArbitrary(n + 1))]),
        };
        const copy = new PieceAssembler();
        for (const line of pieceLines(state)) copy.add(line);
        for (const step of changes) {
          const previous = state;
          let changedBytes = 0;
          if (step.kind === 'append') {
            const added = Array.from({ length: step.count }, (_, n) =>
              rowArbitrary(previous.rows.length + n),
            );
            changedBytes = JSON.stringify(added).length;
            state = { rows: listAppendAll(previous.rows, added) };
          } else if (step.kind === 'replace') {
            const at = 1 + (step.at % Math.max(1, previous.rows.length - 1));
            const row = { ...rowArbitrary(at), name: `renamed ${at}` };
            changedBytes = JSON.stringify(row).length;
            state = at < previous.rows.length ? { rows: listSet(previous.rows, at, row) } : previous;
          } else {
            const large = listGet(previous.rows, 0);
            const ids = listAppendAll(
              large?.ids ?? emptyList<number>(),
              Array.from({ length: step.count }, (_, n) => 100_000 + n),
            );
            changedBytes = 8 * step.count;
            state = { rows: listSet(previous.rows, 0, { ...first, ids }) };
          }
          const { written, lines } = followChange(copy, previous, state);
          // What a change writes: the changed rows, the large row's last chunk of ids (a small value inside
          // a large row is written whole), and each line's path.
          expect(written).toBeLessThanOrEqual(changedBytes + 8 * CHUNK_SIZE + 120 * lines);
        }
      }),
      { seed: 20_261_129, numRuns: 40 },
    );
  });

  it('never set a piece inside a small value of a large row, which a reader may share between places', () => {
    const shared: readonly never[] = Object.freeze([]);
    // A reader that shares as the loaders do: one object for equal customer and payer, one frozen [].
    const sharingCopy = () =>
      new PieceAssembler((_path, value) => {
        const rows = Array.isArray(value) ? value : [value];
        for (const row of rows) {
          if (typeof row !== 'object' || row === null) continue;
          if (JSON.stringify(row.customer) === JSON.stringify(row.payer)) row.payer = row.customer;
          if (Array.isArray(row.payments) && row.payments.length === 0) row.payments = shared;
        }
      });
    const lines = Array.from({ length: 1100 }, (_, n) => n);
    const row = {
      id: 1,
      customer: { email: 'a@example.com' },
      payer: { email: 'a@example.com' },
      payments: [],
      lines,
    };
    const previous = { rows: { length: 1, chunks: [[row]] } };
    const next = {
      rows: {
        length: 1,
        chunks: [
          [
            {
              ...row,
              customer: { email: 'b@example.com' },
              payments: [{ amount: '1' }],
              lines: [...lines, 1100],
            },
          ],
        ],
      },
    };
    const copy = sharingCopy();
    for (const line of pieceLines(previous)) copy.add(line);
    const changed = [...changedPieceLines(previous, next)];
    for (const line of changed) copy.add(line);
    expect(copy.value()).toEqual(next);
    // The large list is still written as its change, not whole.
    expect(changed.join('').length).toBeLessThan(JSON.stringify(lines).length);
  });

  it('write a table that opens a new chunk as that chunk, not as every chunk it holds', () => {
    const rows = (from: number, count: number) =>
      Array.from({ length: count }, (_, n) => ({ id: from + n, name: `row ${from + n}` }));
    const previous = { rows: listFromArray(rows(0, 3 * CHUNK_SIZE)) };
    const next = { rows: listAppendAll(previous.rows, rows(3 * CHUNK_SIZE, 1)) };
    const lines = [...changedPieceLines(previous, next)];
    expect(lines).toEqual([
      `[["rows","length"],${3 * CHUNK_SIZE + 1}]`,
      `[["rows","chunks",3],[{"id":${3 * CHUNK_SIZE},"name":"row ${3 * CHUNK_SIZE}"}]]`,
    ]);
  });

  it('law: a list in groups of chunks, or one saved with every chunk in `chunks`, writes only its changed rows and the copy equals it', () => {
    type Row = { readonly id: number; readonly name: string };
    const row = (id: number, name = 'row'): Row => ({ id, name: `${name} ${id}` });
    const change = fc.oneof(
      fc.record({ kind: fc.constant('append' as const), count: fc.integer({ min: 1, max: 1500 }) }),
      fc.record({ kind: fc.constant('replace' as const), at: fc.nat() }),
    );
    const groupRows = GROUP_SIZE * CHUNK_SIZE;
    fc.assert(
      fc.property(
        fc.integer({ min: groupRows - 1500, max: 2 * groupRows + 1500 }),
        fc.boolean(),
        fc.array(change, { minLength: 1, maxLength: 5 }),
        (start, flat, changes) => {
          const built = listFromArray(Array.from({ length: start }, (_, n) => row(n)));
          let state = { rows: flat ? { length: start, chunks: [...listChunks(built)] } : built };
          const copy = new PieceAssembler();
          for (const line of pieceLines(state)) copy.add(line);
          for (const step of changes) {
            const previous = state;
            let changedBytes = 0;
            if (step.kind === 'append') {
              const added = Array.from({ length: step.count }, (_, n) => row(previous.rows.length + n));
              changedBytes = JSON.stringify(added).length;
              state = { rows: listAppendAll(previous.rows, added) };
            } else {
              const at = step.at % previous.rows.length;
              const renamed = row(at, 'renamed');
              changedBytes = JSON.stringify(renamed).length;
              state = { rows: listSet(previous.rows, at, renamed) };
            }
            const { written, lines } = followChange(copy, previous, state);
            // The changed rows, each line's path, and the shells of a group and of the groups it opens.
            expect(written).toBeLessThanOrEqual(changedBytes + 120 * lines);
          }
        },
      ),
      { seed: 20_261_129, numRuns: 12 },
    );
  });

  it('delete a property the next version no longer has, and skip what both share', () => {
    const shared = [[1, 2, 3]];
    const previous = { keep: shared, gone: 1, changed: { a: 1 } };
    const next = { keep: shared, changed: { a: 2 } };
    const lines = [...changedPieceLines(previous, next)];
    expect(lines).toEqual(['[["gone"]]', '[["changed","a"],2]']);
    const copy = new PieceAssembler();
    for (const line of pieceLines(previous)) copy.add(line);
    for (const line of lines) copy.add(line);
    expect(copy.value()).toEqual(next);
  });
});
