import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { pieceInBlocks } from '../../src/cli/piece-line.js';
import { pieceLines } from '../../src/engine/persistence/pieces.js';

/** Small sizes, so that lines of a few kilobytes are cut into many blocks. */
const SMALL = { fromBytes: 256, blockBytes: 64 };

/** Texts that look like the place a block is cut, inside a string and at its end. */
const trickyText = fc.constantFrom('},{"id":', '},{', 'a},{"id":1', '"', '\\', 'é€𝄞', '],[{', 'plain');
const nested = fc.record({ id: fc.nat(), note: trickyText });
const row = fc.record({
  id: fc.nat(),
  text: trickyText,
  // Objects inside a row that start as rows do: a cut there is inside the row.
  items: fc.array(nested, { maxLength: 3 }),
  inner: fc.option(nested, { nil: null }),
});

const bytesOf = (line: string) => Buffer.from(line, 'utf8');

describe('parsing a chunk line block by block', () => {
  test.prop([fc.array(row, { minLength: 1, maxLength: 60 }), fc.constantFrom('tables', 'events', 'a],[{')])(
    'gives exactly what JSON.parse gives the whole line, with every row seen once in order, or leaves the line to it',
    (rows, name) => {
      const line = JSON.stringify([[name, 'rows', 'chunks', 3], rows]);
      const seen: unknown[] = [];
      const piece = pieceInBlocks(bytesOf(line), (_path, block) => seen.push(...block), SMALL);
      // Only a path holding what looks like its end leaves the line whole: nested objects have
      // another second key than the rows, and texts inside strings have their quotes escaped.
      if (name === 'a],[{' || line.length < SMALL.fromBytes) {
        expect(piece).toBeUndefined();
        return;
      }
      if (piece === undefined) throw new Error('a chunk of rows was parsed whole');
      expect(JSON.stringify(piece)).toBe(line);
      expect(piece).toEqual(JSON.parse(line));
      expect(seen).toEqual(rows);
      expect(piece[1]).toHaveLength(rows.length);
    },
  );

  it('cuts a line of plain rows into blocks', () => {
    const rows = Array.from({ length: 100 }, (_, id) => ({
      id,
      name: `row ${id}`,
      items: [{ id: 1 }, { id: 2 }],
    }));
    const [line] = [...pieceLines({ chunk: rows })].slice(1);
    let blocks = 0;
    const piece = pieceInBlocks(bytesOf(line ?? ''), () => (blocks += 1), SMALL);
    expect(piece).toEqual([['chunk'], rows]);
    expect(blocks).toBeGreaterThan(10);
  });

  it('leaves short lines, lines of other shapes and damaged lines to be parsed whole', () => {
    const rows = Array.from({ length: 50 }, (_, id) => ({ id, name: `row ${id}` }));
    const line = JSON.stringify([['chunk'], rows]);
    const none = () => {};
    expect(pieceInBlocks(bytesOf(line), none)).toBeUndefined();
    expect(
      pieceInBlocks(bytesOf(JSON.stringify([['ids'], rows.map((_, id) => id)])), none, SMALL),
    ).toBeUndefined();
    expect(pieceInBlocks(bytesOf(JSON.stringify([['one'], { rows }])), none, SMALL)).toBeUndefined();
    const cut = line.replace('"row 30"}', '"row 30"');
    expect(pieceInBlocks(bytesOf(cut), none, SMALL)).toBeUndefined();
    const unclosed = line.replace('"row 30"', '"row 30');
    expect(pieceInBlocks(bytesOf(unclosed), none, SMALL)).toBeUndefined();
  });
});
