import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { parsePieceLine, parseRowsInBlocks } from '../../src/cli/piece-line.js';

/** A chunk line of rows repeated from `rows` until it is at least `bytes` long. */
function chunkLine(
  rows: readonly unknown[],
  bytes: number,
  path: unknown = ['tables', 'invoices', 'rows', 'chunks', 3],
) {
  const all: unknown[] = [];
  let length = 0;
  for (let at = 0; length < bytes; at += 1) {
    const row = rows[at % rows.length];
    all.push(row);
    length += JSON.stringify(row).length + 1;
  }
  return JSON.stringify([path, all]);
}

/** Parses the line's bytes, and checks they are as they were after. */
function parsedAndKept(text: string): unknown {
  const bytes = Buffer.from(text, 'utf8');
  const copy = Buffer.from(bytes);
  const value = parsePieceLine(bytes);
  expect(bytes.equals(copy)).toBe(true);
  return value;
}

const invoice = (id: number) => ({
  id,
  uid: `inv_${id}`,
  lines: {
    length: 2,
    chunks: [
      [
        { id: 1, title: 'a' },
        { id: 2, title: 'b' },
      ],
    ],
  },
  memo: 'x'.repeat(id % 300),
});

describe('a line of pieces parsed from its bytes', () => {
  it('is JSON.parse of its text for a long chunk of rows, nested rows with ids included', () => {
    const text = chunkLine([invoice(1), invoice(22), invoice(333)], 600 * 1024);
    expect(parsedAndKept(text)).toEqual(JSON.parse(text));
  });

  it('is read in blocks when long rows start with their id, their own lists of rows with ids too', () => {
    const text = chunkLine([invoice(7), invoice(80)], 900 * 1024);
    const bytes = Buffer.from(text);
    const blocks = parseRowsInBlocks(bytes);
    expect(blocks).toBeDefined();
    expect(JSON.stringify(blocks)).toBe(text);
  });

  it('is JSON.parse of its text when a row holds rows that start as rows do (a cut there fails, the whole line is parsed)', () => {
    const row = (id: number) => ({
      id,
      uid: `u${id}`,
      rows: Array.from({ length: 40 }, (_, at) => ({ id: at, uid: 'n' })),
    });
    const text = chunkLine([row(1), row(2)], 500 * 1024);
    expect(parsedAndKept(text)).toEqual(JSON.parse(text));
  });

  it('is JSON.parse of its text when its last row is a bare id after a cut', () => {
    const others = chunkLine([{ id: 2, x: 'y'.repeat(100) }], 260 * 1024).slice(
      '[["tables","invoices","rows","chunks",3],['.length,
      -2,
    );
    const text = `[["tables","invoices","rows","chunks",3],[{"id":1,"uid":"a"},${others},{"id":1}]]`;
    expect(parsedAndKept(text)).toEqual(JSON.parse(text));
  });

  it('shows its rows once each, in order, with its path, whether read in blocks or whole', () => {
    for (const text of [
      chunkLine([invoice(7), invoice(80)], 900 * 1024),
      chunkLine([invoice(3)], 20 * 1024),
      '[["settings","name"],"y"]',
    ]) {
      const seen: unknown[] = [];
      const value = parsePieceLine(Buffer.from(text), (path, rows) => {
        expect(path).toEqual(JSON.parse(text)[0]);
        if (Array.isArray(rows)) seen.push(...rows);
        else seen.push(rows);
      });
      const whole = JSON.parse(text)[1];
      expect(seen).toEqual(Array.isArray(whole) ? whole : [whole]);
      expect(value).toEqual(JSON.parse(text));
    }
  });

  it('is JSON.parse of its text for short lines and lines of other shapes', () => {
    for (const text of [
      '[["schema"],1]',
      '[[],{}]',
      chunkLine([[1, 2, 3]], 300 * 1024, ['events', 'chunks', 0]),
      chunkLine([{ name: 'no id' }], 300 * 1024),
      JSON.stringify([['settings', 'name'], 'y'.repeat(300 * 1024)]),
    ])
      expect(parsedAndKept(text)).toEqual(JSON.parse(text));
  });

  it('keeps a key "__proto__" an own property, as JSON.parse does', () => {
    const row = '{"id":1,"__proto__":{"polluted":true},"b":2}';
    const text = `[["tables","customers","rows","chunks",0],[${Array(20000).fill(row).join(',')}]]`;
    const value = parsedAndKept(text);
    expect(JSON.stringify(value)).toBe(JSON.stringify(JSON.parse(text)));
    expect(Reflect.get({}, 'polluted')).toBeUndefined();
  });

  it('refuses a long line that is not JSON, as JSON.parse does, and leaves its bytes as they were', () => {
    const text = chunkLine([invoice(5)], 300 * 1024);
    const broken = `${text.slice(0, 200 * 1024)}}${text.slice(200 * 1024)}`;
    expect(() => JSON.parse(broken)).toThrow();
    expect(() => parsedAndKept(broken)).toThrow();
  });

  test.prop(
    [
      fc.array(
        fc.record({
          id: fc.nat(),
          text: fc.string({
            unit: fc.constantFrom('a', 'é', '𝄞', '"', '\\', '}', ',', '{', ':', ']'),
            maxLength: 30,
          }),
          nested: fc.array(fc.record({ id: fc.nat(), v: fc.jsonValue({ maxDepth: 2 }) }), { maxLength: 3 }),
        }),
        { minLength: 1, maxLength: 20 },
      ),
      fc.integer({ min: 230, max: 700 }),
    ],
    { numRuns: 25 },
  )('is JSON.parse of its text for any rows, whatever their strings and nesting', (rows, kilobytes) => {
    const text = chunkLine(rows, kilobytes * 1024);
    const value = parsedAndKept(text);
    expect(JSON.stringify(value)).toBe(JSON.stringify(JSON.parse(text)));
  });
});
