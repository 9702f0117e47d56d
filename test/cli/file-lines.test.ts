import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { fc, test } from '@fast-check/vitest';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { readLines } from '../../src/cli/file-lines.js';
import { nodeFiles } from '../../src/cli/files.js';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'billing-core-lines-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const lineArb = fc.string({ unit: fc.constantFrom('a', 'é', '€', '{', '"', ' ', '𝄞'), maxLength: 40 });

describe('reading a file of lines in slices', () => {
  test.prop([
    fc.array(lineArb, { minLength: 1, maxLength: 30 }),
    fc.integer({ min: 1, max: 50 }),
    fc.option(lineArb.filter((fragment) => fragment.length > 0)),
  ])(
    'every line but the last in order, the last apart, the body measured and checksummed, whatever the slice size',
    async (lines, sliceBytes, unfinished) => {
      const text = lines.map((line) => `${line}\n`).join('') + (unfinished ?? '');
      const path = join(dir, 'lines.txt');
      await writeFile(path, text);
      const seen: string[] = [];
      const read = await readLines(nodeFiles, path, (line) => seen.push(line), sliceBytes);
      expect(read.totalBytes).toBe(Buffer.byteLength(text, 'utf8'));
      if (unfinished !== null) {
        // A file whose last line has no newline has no trailer: what reads it calls it damaged.
        expect(read.last).toBeUndefined();
        return;
      }
      expect(seen).toEqual(lines.slice(0, -1));
      expect(read.last).toBe(lines.at(-1));
      const body = Buffer.from(
        lines
          .slice(0, -1)
          .map((line) => `${line}\n`)
          .join(''),
        'utf8',
      );
      expect(read.bodyBytes).toBe(body.length);
      expect(read.bodyCrc).toBe(crc32(body));
    },
  );
});
