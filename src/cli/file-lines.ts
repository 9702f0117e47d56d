/**
 * Reading a file of lines in slices, never in one buffer: Node cannot read a file of 2 GiB or more at
 * once, and the snapshot of a site of a million subscriptions is several times that. Every line but the
 * last is handed on as soon as a later line shows it is not the last, and checksummed; the last (a
 * snapshot's trailer) comes back with the length and CRC-32 of everything before it.
 */

import { crc32 } from 'node:zlib';
import type { FileLayer } from './files.js';

/** How much of a file one read takes. */
export const READ_SLICE_BYTES = 8 << 20;

export interface LinesRead {
  /** The last line without its newline; undefined when the file holds no line or does not end with a newline. */
  readonly last: string | undefined;
  /** The bytes before the last line, and their CRC-32. */
  readonly bodyBytes: number;
  readonly bodyCrc: number;
  /** The bytes of the whole file. */
  readonly totalBytes: number;
}

/**
 * Reads `path` line by line; `onLine` gets every line but the last (without its newline), in order.
 * @example const { last, bodyBytes, bodyCrc } = await readLines(nodeFiles, 'snapshot.json', (line) => assembler.add(line));
 */
export function readLines(
  files: FileLayer,
  path: string,
  onLine: (line: string) => void,
  sliceBytes: number = READ_SLICE_BYTES,
): Promise<LinesRead> {
  return readLineBytes(files, path, (bytes) => onLine(bytes.toString('utf8')), sliceBytes);
}

/**
 * Reads `path` line by line as `readLines` does, handing each line's bytes (without its newline) rather
 * than its text, so that the caller decides how to decode a long line. The bytes are the caller's only
 * during the call (they may be a read buffer used again next), and are checksummed before it.
 */
export async function readLineBytes(
  files: FileLayer,
  path: string,
  onLine: (line: Buffer) => void,
  sliceBytes: number = READ_SLICE_BYTES,
): Promise<LinesRead> {
  /** The start of a line that runs on into the next slice. */
  let carried: Buffer[] = [];
  /** The last whole line read, with its newline: a body line once another follows it. */
  let pending: Buffer | undefined;
  let bodyBytes = 0;
  let bodyCrc = 0;
  let totalBytes = 0;
  for await (const slice of files.readSlices(path, sliceBytes)) {
    totalBytes += slice.length;
    let start = 0;
    for (let end = slice.indexOf(10); end >= 0; end = slice.indexOf(10, start)) {
      const tail = slice.subarray(start, end + 1);
      const line = carried.length === 0 ? tail : Buffer.concat([...carried, tail]);
      carried = [];
      if (pending !== undefined) {
        bodyCrc = crc32(pending, bodyCrc);
        bodyBytes += pending.length;
        onLine(pending.subarray(0, pending.length - 1));
      }
      pending = line;
      start = end + 1;
    }
    // The slice's bytes are reused by the next read: what outlives it is copied.
    if (pending !== undefined && pending.buffer === slice.buffer) pending = Buffer.from(pending);
    if (start < slice.length) carried.push(Buffer.from(slice.subarray(start)));
  }
  const last =
    carried.length > 0 || pending === undefined ? undefined : pending.toString('utf8', 0, pending.length - 1);
  return { last, bodyBytes, bodyCrc, totalBytes };
}

/** The first byte of a file (undefined when it is empty). */
export async function firstByteOf(files: FileLayer, path: string): Promise<number | undefined> {
  for await (const slice of files.readSlices(path, 1)) return slice[0];
  return undefined;
}
