/**
 * The journal of `billing-core serve --data-dir`: an append-only log of the requests that changed the
 * site (and of test clock moves), each with the instant it was handled at, so that replaying it through
 * `handle` rebuilds the state. A refused request that changed the site (what fell due by its instant,
 * kept whatever the answer) is logged as an `advance` to that instant.
 *
 * One record per line: `<payload bytes> <crc32 of payload, 8 hex digits> <payload JSON>\n`. The length
 * and checksum tell a record cut short by a crash (the last one, never acknowledged) from a good one.
 * Records are appended in batches; each batch is written and fsynced before the responses that wait on
 * it are sent (group commit), so one fsync covers every request applied meanwhile.
 */

import { type FileHandle, open } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { z } from 'zod';

const storedRequestSchema = z.object({
  method: z.string(),
  path: z.string(),
  body: z.unknown().optional(),
});

const entrySchema = z.discriminatedUnion('kind', [
  z.object({
    seq: z.number().int().min(0),
    kind: z.literal('request'),
    now: z.string(),
    request: storedRequestSchema,
  }),
  z.object({ seq: z.number().int().min(0), kind: z.literal('clock'), now: z.string() }),
  // A refused request that still performed what fell due by `now`: replayed as `advance` to `now`,
  // since the request itself (a 401, say) must not be replayed with the site's key.
  z.object({ seq: z.number().int().min(0), kind: z.literal('advance'), now: z.string() }),
]);

/**
 * A journal record. Requests are kept without their headers: the only one the engine reads is
 * Authorization, and replay authenticates with the site's own key instead of keeping secrets on disk.
 */
export type JournalEntry = z.infer<typeof entrySchema>;

const hex = (value: number) => value.toString(16).padStart(8, '0');

/** One record as the bytes of its line. */
export function encodeRecord(entry: JournalEntry): Buffer {
  const payload = Buffer.from(JSON.stringify(entry), 'utf8');
  return Buffer.concat([
    Buffer.from(`${payload.length} ${hex(crc32(payload))} `),
    payload,
    Buffer.from('\n'),
  ]);
}

function decodeLine(line: Buffer): JournalEntry | undefined {
  const first = line.indexOf(32);
  const second = first < 0 ? -1 : line.indexOf(32, first + 1);
  if (first < 1 || second !== first + 9) return undefined;
  const length = line.subarray(0, first).toString('latin1');
  const checksum = line.subarray(first + 1, second).toString('latin1');
  const payload = line.subarray(second + 1);
  if (!/^\d{1,10}$/.test(length) || Number(length) !== payload.length) return undefined;
  if (checksum !== hex(crc32(payload))) return undefined;
  try {
    const parsed = entrySchema.safeParse(JSON.parse(payload.toString('utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** What a journal file holds: its good records, and whether a torn last record follows them. */
export type JournalScan =
  | {
      readonly ok: true;
      readonly entries: readonly JournalEntry[];
      /** Bytes up to the end of the last good record. */
      readonly goodBytes: number;
      readonly torn: boolean;
    }
  | { readonly ok: false; readonly error: string };

/**
 * Reads a journal file's records. A bad record at the very end is a write the crash cut short (it was
 * never acknowledged) and is reported as torn; a bad record followed by others is corruption.
 */
export function scanJournal(bytes: Buffer): JournalScan {
  const entries: JournalEntry[] = [];
  let offset = 0;
  while (offset < bytes.length) {
    const newline = bytes.indexOf(10, offset);
    const end = newline < 0 ? bytes.length : newline;
    const entry = newline < 0 ? undefined : decodeLine(bytes.subarray(offset, end));
    if (entry === undefined) {
      if (end + 1 >= bytes.length) return { ok: true, entries, goodBytes: offset, torn: true };
      return { ok: false, error: `a damaged record at byte ${offset}, followed by others` };
    }
    entries.push(entry);
    offset = end + 1;
  }
  return { ok: true, entries, goodBytes: offset, torn: false };
}

const SEGMENT = /^journal-(\d{12})\.log$/;

/** The file name of the journal segment whose first record is `seq`. */
export const segmentName = (seq: number) => `journal-${String(seq).padStart(12, '0')}.log`;

/** The first record number of a segment file name, or undefined for other files. */
export function segmentStart(name: string): number | undefined {
  const match = SEGMENT.exec(name);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

/** Makes a directory entry (a new or renamed file) durable. */
export async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

type Operation =
  | { readonly kind: 'write'; readonly bytes: Buffer }
  | { readonly kind: 'rotate'; readonly seq: number };

interface Waiter {
  readonly upTo: number;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

/**
 * Appends records to the current segment. `append` and `rotate` only queue; `flushed` resolves once
 * everything queued before it is on disk. The first failure is final: later calls reject with it.
 */
export class JournalWriter {
  private readonly operations: Operation[] = [];
  private readonly waiters: Waiter[] = [];
  private queued = 0;
  private done = 0;
  private running = false;
  private failure: Error | undefined;

  private constructor(
    private readonly dir: string,
    private file: FileHandle,
  ) {}

  /** Opens (or creates) the segment starting at `seq` for appending. */
  static async open(dir: string, seq: number): Promise<JournalWriter> {
    const file = await open(join(dir, segmentName(seq)), 'a');
    await syncDirectory(dir);
    return new JournalWriter(dir, file);
  }

  append(entry: JournalEntry): void {
    this.enqueue({ kind: 'write', bytes: encodeRecord(entry) });
  }

  /** Later records go to a new segment starting at `seq`. */
  rotate(seq: number): void {
    this.enqueue({ kind: 'rotate', seq });
  }

  flushed(): Promise<void> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    if (this.done === this.queued) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.waiters.push({ upTo: this.queued, resolve, reject });
    });
  }

  /** Flushes, then closes the current segment. */
  async close(): Promise<void> {
    try {
      await this.flushed();
    } finally {
      await this.file.close().catch(() => {});
    }
  }

  private enqueue(operation: Operation): void {
    this.operations.push(operation);
    this.queued += 1;
    if (!this.running) {
      this.running = true;
      // Started on a later tick, so that requests applied meanwhile share the fsync.
      setImmediate(() => void this.run());
    }
  }

  private async run(): Promise<void> {
    try {
      while (this.operations.length > 0 && this.failure === undefined) {
        const batch = this.operations.splice(0);
        let pending: Buffer[] = [];
        const write = async () => {
          if (pending.length === 0) return;
          await this.file.write(Buffer.concat(pending));
          await this.file.sync();
          pending = [];
        };
        for (const operation of batch) {
          if (operation.kind === 'write') pending.push(operation.bytes);
          else {
            await write();
            await this.file.close();
            this.file = await open(join(this.dir, segmentName(operation.seq)), 'a');
            await syncDirectory(this.dir);
          }
        }
        await write();
        this.done += batch.length;
        this.settle();
      }
    } catch (error) {
      this.failure = error instanceof Error ? error : new Error(String(error));
      this.settle();
    } finally {
      this.running = false;
    }
  }

  private settle(): void {
    for (let i = this.waiters.length - 1; i >= 0; i -= 1) {
      const waiter = this.waiters[i];
      if (waiter === undefined) continue;
      if (this.failure !== undefined) waiter.reject(this.failure);
      else if (waiter.upTo <= this.done) waiter.resolve();
      else continue;
      this.waiters.splice(i, 1);
    }
  }
}
