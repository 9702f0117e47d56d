import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { fc, test } from '@fast-check/vitest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LONGEST_LAST_LINE, readLineBytes } from '../../src/cli/file-lines.js';
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
      const read = await readLineBytes(
        nodeFiles,
        path,
        (line) => seen.push(line.toString('utf8')),
        sliceBytes,
      );
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

describe('long lines', () => {
  test.prop([
    fc.array(fc.integer({ min: 0, max: 3 * LONGEST_LAST_LINE }), { minLength: 1, maxLength: 6 }),
    fc.integer({ min: 1000, max: 200_000 }),
  ])(
    'are handed on in order and checksummed; a long last line is handed on too, and there is no last line then',
    async (lengths, sliceBytes) => {
      const lines = lengths.map((length, at) => String.fromCharCode(97 + at).repeat(length));
      const text = lines.map((line) => `${line}\n`).join('');
      const path = join(dir, 'long.txt');
      await writeFile(path, text);
      const seen: string[] = [];
      const read = await readLineBytes(
        nodeFiles,
        path,
        (line) => seen.push(line.toString('utf8')),
        sliceBytes,
      );
      const lastIsLong = (lines.at(-1)?.length ?? 0) > LONGEST_LAST_LINE;
      const body = lastIsLong ? lines : lines.slice(0, -1);
      expect(seen).toEqual(body);
      expect(read.last).toBe(lastIsLong ? undefined : lines.at(-1));
      const bodyBytes = Buffer.from(body.map((line) => `${line}\n`).join(''));
      expect(read.bodyBytes).toBe(bodyBytes.length);
      expect(read.bodyCrc).toBe(crc32(bodyBytes));
      expect(read.totalBytes).toBe(text.length);
    },
  );
});

describe('the text of a line', () => {
  test.prop([
    fc.array(
      fc.uint8Array({ maxLength: 40 }).map((bytes) => bytes.filter((byte) => byte !== 10)),
      { minLength: 1, maxLength: 20 },
    ),
  ])(
    'is its bytes decoded as UTF-8, whatever they are (ASCII, other Latin-1 bytes, invalid UTF-8)',
    async (lines) => {
      const path = join(dir, 'bytes.txt');
      await writeFile(
        path,
        Buffer.concat([...lines, new Uint8Array()].flatMap((line) => [line, Buffer.from('\n')])),
      );
      const seen: string[] = [];
      await readLineBytes(nodeFiles, path, (line) => seen.push(line.toString('utf8')), 16);
      expect(seen).toEqual(lines.map((line) => Buffer.from(line).toString('utf8')));
    },
  );
});

describe('reading a file in slices, the next read while the caller works', () => {
  test.prop([fc.uint8Array({ minLength: 0, maxLength: 300 }), fc.integer({ min: 1, max: 64 })])(
    'every byte in order, and a slice unchanged until the next is asked for, however long the caller takes',
    async (content, sliceBytes) => {
      const path = join(dir, 'slices.bin');
      await writeFile(path, content);
      const seen: Buffer[] = [];
      for await (const slice of nodeFiles.readSlices(path, sliceBytes)) {
        const copy = Buffer.from(slice);
        // The next slice is being read meanwhile: it must land in the other buffer.
        await new Promise((resolve) => setTimeout(resolve, 1));
        expect(slice.equals(copy)).toBe(true);
        seen.push(copy);
      }
      expect(Buffer.concat(seen).equals(Buffer.from(content))).toBe(true);
    },
  );

  it('a caller that stops early leaves the file closed and nothing under way', async () => {
    const path = join(dir, 'early.bin');
    await writeFile(path, Buffer.alloc(1000, 7));
    const openFiles = async () => (await readdir('/proc/self/fd')).length;
    const before = await openFiles();
    for (let round = 0; round < 50; round += 1) {
      for await (const slice of nodeFiles.readSlices(path, 10)) {
        expect(slice[0]).toBe(7);
        break;
      }
    }
    // Every handle was closed once its read under way ended: not one more open file a round.
    expect(await openFiles()).toBeLessThan(before + 5);
  });
});
