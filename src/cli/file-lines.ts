/**
 * Reading a file of lines in slices, never in one buffer: Node cannot read a file of 2 GiB or more at
 * once, and the snapshot of a site of a million subscriptions is several times that. Every line but the
 * last is handed on, and checksummed, as soon as a later line shows it is not the last (a long one at
 * once: a trailer is short); the last (a snapshot's trailer) comes back with the length and CRC-32 of
 * everything before it.
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
 * The longest last line that is reported as such: a trailer is one short line. A longer line is handed
 * on as soon as it is read, without waiting to see whether another follows (which would mean copying it
 * out of the read buffer); when it was the last, the file is reported as having no last line.
 */
export const LONGEST_LAST_LINE = 64 << 10;

/**
 * Reads `path` line by line: `onLine` gets the bytes of every line but the last (without its newline), in
 * order, so that the caller decides how to decode a long line. The bytes are the caller's only
 * during the call (they may be a read buffer used again next), and are checksummed before it. A last
 * line longer than `LONGEST_LAST_LINE` is handed on as a body line and `last` is undefined.
 * @example const { last, bodyBytes, bodyCrc } = await readLineBytes(nodeFiles, 'snapshot.json', (line) => lines.push(line.toString('utf8')));
 */
export async function readLineBytes(
  files: FileLayer,
  path: string,
  onLine: (line: Buffer) => void,
  sliceBytes: number = READ_SLICE_BYTES,
): Promise<LinesRead> {
  /** The start of a line that runs on into the next slice, in a buffer used again for the next such line. */
  let carry = Buffer.alloc(0);
  let carried = 0;
  /** The last whole line read, with its newline, when short: a body line once another follows it. */
  let held: Buffer | undefined;
  let bodyBytes = 0;
  let bodyCrc = 0;
  let totalBytes = 0;
  const handOn = (line: Buffer) => {
    bodyCrc = crc32(line, bodyCrc);
    bodyBytes += line.length;
    onLine(line.subarray(0, line.length - 1));
  };
  const carryOn = (bytes: Buffer) => {
    if (carried + bytes.length > carry.length) {
      const larger = Buffer.allocUnsafe(Math.max(carried + bytes.length, 2 * carry.length));
      carry.copy(larger, 0, 0, carried);
      carry = larger;
    }
    bytes.copy(carry, carried);
    carried += bytes.length;
  };
  for await (const slice of files.readSlices(path, sliceBytes)) {
    totalBytes += slice.length;
    let start = 0;
    for (let end = slice.indexOf(10); end >= 0; end = slice.indexOf(10, start)) {
      let line = slice.subarray(start, end + 1);
      if (carried > 0) {
        carryOn(line);
        line = carry.subarray(0, carried);
        carried = 0;
      }
      if (held !== undefined) handOn(held);
      held = undefined;
      // The slice's bytes are reused by the next read: a line kept past it is copied.
      if (line.length <= LONGEST_LAST_LINE + 1) held = Buffer.from(line);
      else handOn(line);
      start = end + 1;
    }
    if (start < slice.length) carryOn(slice.subarray(start));
  }
  const last = carried > 0 || held === undefined ? undefined : held.toString('utf8', 0, held.length - 1);
  return { last, bodyBytes, bodyCrc, totalBytes };
}

/** The first byte of a file (undefined when it is empty). */
export async function firstByteOf(files: FileLayer, path: string): Promise<number | undefined> {
  for await (const slice of files.readSlices(path, 1)) return slice[0];
  return undefined;
}
