/**
 * The file operations the data directory uses (data-dir.ts, journal.ts, snapshot.ts), behind one small
 * interface so that tests can inject faults: a short write, or ENOSPC, at a chosen byte count.
 *
 * Every write goes through `writeAll`, which loops on short writes (Linux answers a write that fills the
 * disk with fewer bytes than asked, without an error) and fails when no byte at all can be written.
 */

import { constants } from 'node:fs';
import { type FileHandle, mkdir, open, readdir, readFile, rename, rm, truncate } from 'node:fs/promises';

/** A file opened for writing. */
export interface WritableFile {
  /** Writes some of the bytes (at the end for a file opened to append); resolves to how many. */
  readonly write: (bytes: Uint8Array) => Promise<number>;
  readonly sync: () => Promise<void>;
  readonly truncate: (length: number) => Promise<void>;
  readonly size: () => Promise<number>;
  readonly close: () => Promise<void>;
}

export interface FileLayer {
  /** `a`: create or append; `w`: create or truncate. New files are readable by their owner only. */
  readonly open: (path: string, flags: 'a' | 'w') => Promise<WritableFile>;
  readonly readFile: (path: string) => Promise<Buffer>;
  /**
   * Reads a file from its start in consecutive slices of up to `bytes` each: what a file too large for
   * one buffer (Node refuses to read 2 GiB or more at once) is read through. A slice is valid only until
   * the next is asked for (its bytes may be reused): copy what must outlive it.
   */
  readonly readSlices: (path: string, bytes: number) => AsyncIterable<Buffer>;
  readonly readdir: (dir: string) => Promise<string[]>;
  readonly rename: (from: string, to: string) => Promise<void>;
  readonly rm: (path: string) => Promise<void>;
  readonly truncate: (path: string, length: number) => Promise<void>;
  readonly mkdir: (dir: string) => Promise<void>;
  /** Makes a directory entry (a new or renamed file) durable. */
  readonly syncDirectory: (dir: string) => Promise<void>;
}

const wrap = (file: FileHandle): WritableFile => ({
  write: async (bytes) => (await file.write(bytes, 0, bytes.length, null)).bytesWritten,
  sync: () => file.sync(),
  truncate: (length) => file.truncate(length),
  size: async () => (await file.stat()).size,
  close: () => file.close(),
});

/** The real file system. */
export const nodeFiles: FileLayer = {
  open: async (path, flags) => wrap(await open(path, flags, 0o600)),
  readFile: (path) => readFile(path),
  readSlices: async function* (path, bytes) {
    const handle = await open(path, 'r');
    // Two buffers, taken in turn for every slice: a new one of 8 MiB per read made V8 collect a large heap
    // over and over (external memory counts toward its next full collection). The next slice is read into
    // one while the caller works on the other, so that a start parsing a large snapshot never waits on
    // the disk.
    const buffers = [Buffer.allocUnsafe(bytes), Buffer.allocUnsafe(bytes)] as const;
    const readInto = (buffer: Buffer) => {
      const read = handle.read(buffer, 0, bytes, null);
      // Handled here as well: a read that fails while the caller works is reported when it is awaited.
      read.catch(() => {});
      return read;
    };
    let reading = readInto(buffers[0]);
    try {
      for (;;) {
        const { bytesRead, buffer } = await reading;
        if (bytesRead === 0) return;
        reading = readInto(buffer === buffers[0] ? buffers[1] : buffers[0]);
        yield bytesRead === bytes ? buffer : buffer.subarray(0, bytesRead);
      }
    } finally {
      // A caller that stops early leaves a read under way: it ends before the file is closed.
      await reading.catch(() => {});
      await handle.close();
    }
  },
  readdir: (dir) => readdir(dir),
  rename: (from, to) => rename(from, to),
  rm: (path) => rm(path, { force: true }),
  truncate: (path, length) => truncate(path, length),
  mkdir: async (dir) => {
    await mkdir(dir, { recursive: true, mode: 0o700 });
  },
  syncDirectory: async (dir) => {
    const handle = await open(dir, constants.O_RDONLY);
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  },
};

/** An error with a Node-style code, as the file system reports them. */
export function fileError(code: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: ${message}`), { code });
}

/**
 * Writes every byte, looping on short writes; a write that makes no progress fails (a full disk).
 * @example await writeAll(file, Buffer.from('record\n'));
 */
export async function writeAll(file: WritableFile, bytes: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < bytes.length) {
    const written = await file.write(bytes.subarray(offset));
    if (!Number.isInteger(written) || written <= 0 || written > bytes.length - offset)
      throw fileError('ENOSPC', `wrote ${offset} of ${bytes.length} bytes, then no more`);
    offset += written;
  }
}
