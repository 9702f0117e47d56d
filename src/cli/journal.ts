/**
 * The journal of `billing-core serve --data-dir`: an append-only log of the requests that changed the
 * site (and of test clock moves), each with the instant it was handled at, so that replaying it through
 * `handle` rebuilds the state. A refused request that changed the site (what fell due by its instant,
 * kept whatever the answer) is logged as an `advance` to that instant.
 *
 * One record per line: `<payload bytes> <crc32 of payload, 8 hex digits> <payload JSON>\n`. The length
 * and checksum tell a record cut short by a crash (the last one, without its newline: never
 * acknowledged) from a good one, and a damaged record (complete, with a bad checksum) from both.
 * A segment that was rotated ends with an `end` record naming the next segment, so a deleted segment is
 * noticed even when it was the last one.
 * Records are appended in batches; each batch is written and fsynced before the responses that wait on
 * it are sent (group commit), so one fsync covers every request applied meanwhile.
 */

import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { z } from 'zod';
import { type FileLayer, nodeFiles, type WritableFile, writeAll } from './files.js';

const storedRequestSchema = z.object({
  method: z.string(),
  path: z.string(),
  body: z.unknown().optional(),
});

const outcomeSchema = z.union([
  z.object({ success: z.literal(true), gatewayTransactionId: z.string().exactOptional() }),
  z.object({ success: z.literal(false), message: z.string(), requiresAction: z.boolean().exactOptional() }),
]);

/** The payment processor's answers during the request, so that its replay gives the same state. */
const paymentsSchema = z
  .array(z.object({ idempotencyKey: z.string(), outcome: outcomeSchema }))
  .exactOptional();

const entrySchema = z.discriminatedUnion('kind', [
  z.object({
    seq: z.number().int().min(0),
    kind: z.literal('request'),
    now: z.string(),
    request: storedRequestSchema,
    payments: paymentsSchema,
  }),
  z.object({ seq: z.number().int().min(0), kind: z.literal('clock'), now: z.string() }),
  // A refused request that still performed what fell due by `now`: replayed as `advance` to `now`,
  // since the request itself (a 401, say) must not be replayed with the site's key.
  z.object({
    seq: z.number().int().min(0),
    kind: z.literal('advance'),
    now: z.string(),
    payments: paymentsSchema,
  }),
  // The last record of a segment that was rotated: the next records are in segment `seq`.
  z.object({ seq: z.number().int().min(0), kind: z.literal('end') }),
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

/** Where a record sits in its file. */
export interface JournalRecord {
  readonly entry: JournalEntry;
  readonly offset: number;
  /** The byte after its newline. */
  readonly end: number;
}

/** What a journal file holds: its good records, then possibly a torn last record or damage. */
export interface JournalScan {
  readonly records: readonly JournalRecord[];
  /** Bytes up to the end of the last good record. */
  readonly goodBytes: number;
  /** A last record cut short (no newline, shorter than its length): a write the crash cut, never acknowledged. */
  readonly torn: boolean;
  /** The first damaged record (complete, but failing its checksum or shape); nothing after it is read. */
  readonly damage?: { readonly offset: number; readonly end: number; readonly reason: string };
}

/** Whether the bytes without a newline at the end of a file are the start of a record cut short. */
function isTornTail(tail: Buffer): boolean {
  const first = tail.indexOf(32);
  if (first < 0) return /^\d{0,10}$/.test(tail.toString('latin1'));
  const length = tail.subarray(0, first).toString('latin1');
  if (!/^\d{1,10}$/.test(length)) return false;
  const rest = tail.subarray(first + 1);
  const second = rest.indexOf(32);
  if (second < 0) return /^[0-9a-f]{0,8}$/.test(rest.toString('latin1'));
  if (second !== 8 || !/^[0-9a-f]{8}$/.test(rest.subarray(0, 8).toString('latin1'))) return false;
  return rest.length - 9 <= Number(length);
}

/** Why a complete line is not a good record, or undefined when it is one. */
function damageOf(line: Buffer): string | undefined {
  const first = line.indexOf(32);
  const second = first < 0 ? -1 : line.indexOf(32, first + 1);
  if (first < 1 || second !== first + 9) return 'no record header';
  const length = line.subarray(0, first).toString('latin1');
  if (!/^\d{1,10}$/.test(length)) return 'no record length';
  const payload = line.subarray(second + 1);
  if (Number(length) !== payload.length)
    return `its length says ${length} bytes, but ${payload.length} are there`;
  return 'a bad checksum or content';
}

/**
 * Reads a journal file's records. Only a last record cut short (no newline, not longer than its length)
 * is torn; a complete record that fails its checksum is damage to an acknowledged record, wherever it is.
 */
export function scanJournal(bytes: Buffer): JournalScan {
  const records: JournalRecord[] = [];
  let offset = 0;
  while (offset < bytes.length) {
    const newline = bytes.indexOf(10, offset);
    if (newline < 0) {
      const tail = bytes.subarray(offset);
      if (isTornTail(tail)) return { records, goodBytes: offset, torn: true };
      return {
        records,
        goodBytes: offset,
        torn: false,
        damage: { offset, end: bytes.length, reason: 'unreadable bytes at the end' },
      };
    }
    const line = bytes.subarray(offset, newline);
    const entry = decodeLine(line);
    if (entry === undefined)
      return {
        records,
        goodBytes: offset,
        torn: false,
        damage: { offset, end: newline + 1, reason: damageOf(line) ?? 'a bad record' },
      };
    records.push({ entry, offset, end: newline + 1 });
    offset = newline + 1;
  }
  return { records, goodBytes: offset, torn: false };
}

const SEGMENT = /^journal-(\d{12})\.log$/;

/** The file name of the journal segment whose first record is `seq`. */
export const segmentName = (seq: number) => `journal-${String(seq).padStart(12, '0')}.log`;

/** The first record number of a segment file name, or undefined for other files. */
export function segmentStart(name: string): number | undefined {
  const match = SEGMENT.exec(name);
  return match?.[1] === undefined ? undefined : Number(match[1]);
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
 * everything queued before it is on disk. Every write is completed (short writes are continued) and
 * fsynced before it counts; the first failure is final: the bytes of the failed batch are cut off again
 * (as far as the disk allows), and later calls reject with it.
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
    private readonly files: FileLayer,
    private file: WritableFile,
    /** The first record number of the current segment. */
    private segment: number,
    /** Bytes of the current segment known to be on disk. */
    private durable: number,
  ) {}

  /** Opens (or creates) the segment starting at `seq` for appending. */
  static async open(dir: string, seq: number, files: FileLayer = nodeFiles): Promise<JournalWriter> {
    const file = await files.open(join(dir, segmentName(seq)), 'a');
    try {
      await files.syncDirectory(dir);
      return new JournalWriter(dir, files, file, seq, await file.size());
    } catch (error) {
      await file.close().catch(() => {});
      throw error;
    }
  }

  /** The failure that stopped the journal, if any. */
  get failed(): Error | undefined {
    return this.failure;
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

  /** Writes and fsyncs bytes at the end of the current segment. */
  private async write(bytes: Buffer): Promise<void> {
    if (bytes.length === 0) return;
    await writeAll(this.file, bytes);
    await this.file.sync();
    this.durable += bytes.length;
  }

  /**
   * A new segment is created (and its directory entry made durable) before the old one gets its end
   * record, so a segment that ends with one always has its successor.
   */
  private async rotateTo(seq: number): Promise<void> {
    // Nothing was written since the segment began: it stays the current one.
    if (seq === this.segment) return;
    const next = await this.files.open(join(this.dir, segmentName(seq)), 'a');
    try {
      await this.files.syncDirectory(this.dir);
      await this.write(encodeRecord({ seq, kind: 'end' }));
    } catch (error) {
      await next.close().catch(() => {});
      throw error;
    }
    await this.file.close();
    this.file = next;
    this.segment = seq;
    this.durable = await next.size();
  }

  private async run(): Promise<void> {
    try {
      while (this.operations.length > 0 && this.failure === undefined) {
        const batch = this.operations.splice(0);
        let pending: Buffer[] = [];
        for (const operation of batch) {
          if (operation.kind === 'write') pending.push(operation.bytes);
          else {
            await this.write(Buffer.concat(pending));
            pending = [];
            await this.rotateTo(operation.seq);
          }
        }
        await this.write(Buffer.concat(pending));
        this.done += batch.length;
        this.settle();
      }
    } catch (error) {
      this.failure = error instanceof Error ? error : new Error(String(error));
      // What was written of the failed batch was never acknowledged: cut it off, so that a restart
      // does not bring back changes that were answered 503. Best effort: the failure stands anyway.
      await this.file
        .truncate(this.durable)
        .then(() => this.file.sync())
        .catch(() => {});
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
