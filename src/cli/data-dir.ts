/**
 * The data directory of `billing-core serve --data-dir`: a snapshot, and the journal of what changed
 * since. Opening loads the snapshot and replays the journal through `handle`; serving appends every
 * request that changed the state (written in full and fsynced before its response is sent; a refused one,
 * which changed only what fell due, as an `advance` to its instant) and, every so many records, starts a
 * new journal segment, writes a new snapshot (verified by reading it back) and only then deletes the
 * segments it covers.
 *
 * Damage is never silent: a complete journal record with a bad checksum, a gap in the record numbers, or
 * a missing segment (the journal deleted, or a segment that an earlier one names) refuses to open and
 * says which file, offset and record; `repair` moves the damaged and unreachable bytes aside and reports
 * the records dropped. Only a last record cut short (a write the crash interrupted) is dropped quietly.
 *
 * The site's configuration is fixed when the directory is created (a journal segment and a snapshot at
 * position 0 are written at once); later starts use the stored site. A new directory gets a random
 * portal secret (kept in the snapshot, with the rest of the settings) unless one is given.
 */

import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { AppliedRequest } from '../adapters/fetch.js';
import { handle } from '../api/handle.js';
import type { ApiRequest } from '../api/types.js';
import { recordedGateway } from '../domain/payment/outcome-book.js';
import type { PaymentGateway, SettledPayment } from '../domain/payment/types.js';
import type { SiteConfig } from '../domain/site/config.js';
import { advance } from '../engine/advance.js';
import { createSite, fillLaterTables, type SiteState } from '../engine/state.js';
import { type FileLayer, nodeFiles, writeAll } from './files.js';
import {
  type JournalEntry,
  type JournalRecord,
  JournalWriter,
  scanJournal,
  segmentName,
  segmentStart,
} from './journal.js';
import { deltaFiles, readSnapshot, type Snapshot, writeSnapshot, writeSnapshotDelta } from './snapshot.js';

export const DEFAULT_SNAPSHOT_EVERY = 1000;

/**
 * A start reads the full snapshot and every delta after it, so the next snapshot is full once the deltas
 * weigh half the full one (a start then reads at most 1.5 times what the site holds), or once there are
 * this many of them. Not sooner: a full snapshot of a large site is gigabytes and deltas are what changed,
 * so a site of a million subscriptions gets a full snapshot every few hundred thousand changes rather than
 * writing its whole state again every few tens of thousands.
 */
const MAX_DELTAS = 1024;

export interface DataDirOptions {
  /** The configuration of a new site (when the directory holds none yet). */
  readonly site: SiteConfig;
  /** Journal records between snapshots. */
  readonly snapshotEvery?: number;
  /** Where to report what was repaired on opening, and snapshots that failed. */
  readonly warn?: (message: string) => void;
  /**
   * The portal secret: a new directory's site gets it (or `site.portalSecret`, or a random one); an
   * existing one is switched to it (voiding earlier portal links) with a snapshot written at once.
   */
  readonly portalSecret?: string;
  /** Move damaged or unreachable journal bytes aside (reported through `warn`) instead of refusing. */
  readonly repair?: boolean;
  /** The file operations (tests inject faults here). */
  readonly files?: FileLayer;
}

export interface Store {
  /** The state as loaded: snapshot plus journal. */
  readonly state: SiteState;
  /** The latest test clock move in the journal, if any. */
  readonly clock: string | undefined;
  /**
   * Journals a request if it changed the state; resolves once it (and all before it) is on disk, rejects
   * when it could not be saved (and so does every later call: nothing more is acknowledged).
   */
  readonly commit: (applied: AppliedRequest) => Promise<void>;
  /** Journals a test clock move (flushed with the next `commit`). */
  readonly recordClock: (now: string) => void;
  /** Why saving stopped, if it did. */
  readonly failure: () => Error | undefined;
  /**
   * Flushes and closes the journal; with a state, writes a final snapshot of it first (not after a
   * failure: the state may then hold a change that was never saved).
   */
  readonly close: (finalState?: SiteState) => Promise<void>;
}

/** A random portal secret: 32 bytes from the system's generator, as hex. */
export const randomPortalSecret = (): string => randomBytes(32).toString('hex');

/** The secret every site had by default before sites needed a secret of their own: public, so never kept. */
const publicDefaultSecret = (state: SiteState) => `billing-core-portal-${state.settings.subdomain}`;

const withPortalSecret = (state: SiteState, portalSecret: string): SiteState => ({
  ...state,
  settings: { ...state.settings, portalSecret },
});

/** Replay authenticates with the site's own key: journal records keep no credentials. */
/**
 * The context a journal record is replayed in: the payment processor's recorded answers, when it had
 * any, else the test gateway (which is deterministic, so its answers need no record).
 */
function replayContext(entry: { readonly now: string; readonly payments?: readonly SettledPayment[] }): {
  readonly now: string;
  readonly payments?: PaymentGateway;
} {
  return entry.payments === undefined
    ? { now: entry.now }
    : { now: entry.now, payments: recordedGateway(entry.payments) };
}

function replayRequest(state: SiteState, entry: Extract<JournalEntry, { kind: 'request' }>): ApiRequest {
  const key = state.settings.apiKeys?.[0];
  const base = { method: entry.request.method, path: entry.request.path };
  const headers = key === undefined ? {} : { headers: { authorization: `Basic ${btoa(`${key}:x`)}` } };
  return entry.request.body === undefined
    ? { ...base, ...headers }
    : { ...base, ...headers, body: entry.request.body };
}

interface Segment {
  readonly start: number;
  readonly name: string;
  readonly path: string;
}

async function segmentsOf(dir: string, files: FileLayer): Promise<Segment[]> {
  const segments: Segment[] = [];
  for (const name of await files.readdir(dir)) {
    const start = segmentStart(name);
    if (start !== undefined) segments.push({ start, name, path: join(dir, name) });
  }
  return segments.sort((a, b) => a.start - b.start);
}

type Loaded = { state: SiteState; next: number; clock: string | undefined; lastSegment: number };
type Opened<T> = { ok: true; value: T } | { ok: false; error: string };

const range = (first: number, last: number) =>
  first === last ? `record ${first}` : `records ${first} to ${last}`;

/** The record numbers in journal bytes that scan as good records (to report what repair drops). */
function recordNumbers(bytes: Buffer): number[] {
  const numbers: number[] = [];
  let rest = bytes;
  for (let guard = 0; rest.length > 0 && guard < 1_000_000; guard += 1) {
    const scan = scanJournal(rest);
    for (const { entry } of scan.records) if (entry.kind !== 'end') numbers.push(entry.seq);
    if (scan.damage === undefined) break;
    rest = rest.subarray(scan.damage.end);
  }
  return numbers;
}

/**
 * Moves bytes from `offset` of a segment, and every later segment, aside (into `<name>.damaged-<offset>`
 * and `<name>.dropped`), and says which records went with them.
 */
async function moveAside(
  files: FileLayer,
  dir: string,
  segment: Segment,
  bytes: Buffer,
  offset: number,
  later: readonly Segment[],
): Promise<string> {
  const aside = `${segment.path}.damaged-${offset}`;
  const moved = bytes.subarray(offset);
  const file = await files.open(aside, 'w');
  try {
    await writeAll(file, moved);
    await file.sync();
  } finally {
    await file.close();
  }
  await files.truncate(segment.path, offset);
  const numbers = recordNumbers(moved);
  const names = [aside];
  for (const other of later) {
    const contents = await files.readFile(other.path);
    numbers.push(...recordNumbers(contents));
    await files.rename(other.path, `${other.path}.dropped`);
    names.push(`${other.path}.dropped`);
  }
  await files.syncDirectory(dir);
  const intact =
    numbers.length === 0
      ? 'no intact records'
      : `intact ${range(Math.min(...numbers), Math.max(...numbers))}`;
  return `moved aside to ${names.join(', ')} (${intact} among them)`;
}

async function holdRecords(files: FileLayer, segments: readonly Segment[]): Promise<boolean> {
  for (const segment of segments) if ((await files.readFile(segment.path)).length > 0) return true;
  return false;
}

async function replay(
  dir: string,
  options: DataDirOptions,
  files: FileLayer,
  start: { state: SiteState; position: number },
): Promise<Opened<Loaded>> {
  let { state } = start;
  let next = start.position;
  let clock: string | undefined;
  const segments = await segmentsOf(dir, files);
  const warn = options.warn ?? (() => {});
  const first = segments[0];
  if (first === undefined || first.start > next) {
    const missing = `${join(dir, segmentName(next))} is missing: the journal from record ${next} on (after the snapshot's position) is gone`;
    if (!options.repair)
      return { ok: false, error: `${missing}; start with --repair to serve the snapshot alone` };
    warn(
      `repair: ${missing}; serving from the snapshot, records from ${next} on (if there were any) are lost`,
    );
    for (const later of segments) await files.rename(later.path, `${later.path}.dropped`);
    return { ok: true, value: { state, next, clock, lastSegment: next } };
  }
  let endsNaming: number | undefined;
  for (const [index, segment] of segments.entries()) {
    const later = segments.slice(index + 1);
    if (segment.start > next) {
      const missing = `${join(dir, segmentName(next))} is missing: ${range(next, segment.start - 1)} are gone before ${segment.name}`;
      if (!options.repair)
        return { ok: false, error: `${missing}; start with --repair to drop what follows the gap` };
      const bytes = await files.readFile(segment.path);
      const report = await moveAside(files, dir, segment, bytes, 0, later);
      warn(`repair: ${missing}; the records after the gap cannot be replayed and were ${report}`);
      return { ok: true, value: { state, next, clock, lastSegment: segment.start } };
    }
    const bytes = await files.readFile(segment.path);
    const scan = scanJournal(bytes);
    let damage: { offset: number; reason: string } | undefined =
      scan.damage === undefined ? undefined : { offset: scan.damage.offset, reason: scan.damage.reason };
    // A crash while rotating can cut the end record short after the next (empty) segment was made.
    if (damage === undefined && scan.torn && (await holdRecords(files, later)))
      damage = { offset: scan.goodBytes, reason: 'a record cut short, with later records after it' };
    endsNaming = undefined;
    let records: readonly JournalRecord[] = scan.records;
    for (const [at, { entry, offset }] of records.entries()) {
      if (entry.kind === 'end') {
        // A segment the snapshot already covers (left by a crash before its deletion).
        if (entry.seq < next && at === records.length - 1) continue;
        if (entry.seq !== next || at !== records.length - 1)
          damage = {
            offset,
            reason: `an end record naming segment ${entry.seq} where record ${next} belongs`,
          };
        else endsNaming = entry.seq;
        if (damage !== undefined) {
          records = records.slice(0, at);
          break;
        }
        continue;
      }
      if (entry.seq < next) continue;
      if (entry.seq !== next) {
        damage = { offset, reason: `record ${entry.seq} where record ${next} belongs` };
        records = records.slice(0, at);
        break;
      }
      if (entry.kind === 'clock') clock = entry.now;
      else if (entry.kind === 'advance') state = advance(state, replayContext(entry)).state;
      else state = handle(state, replayRequest(state, entry), replayContext(entry)).state;
      next += 1;
    }
    if (damage !== undefined) {
      const where = `${segment.path} at byte ${damage.offset}, record ${next}: ${damage.reason}`;
      if (!options.repair)
        return {
          ok: false,
          error: `damaged journal: ${where}. Acknowledged records may be lost; start with --repair to move the damaged bytes aside`,
        };
      const report = await moveAside(files, dir, segment, bytes, damage.offset, later);
      warn(`repair: dropped the damaged record ${next} (${where}) and everything after it: ${report}`);
      return { ok: true, value: { state, next, clock, lastSegment: segment.start } };
    }
    if (scan.torn) {
      await files.truncate(segment.path, scan.goodBytes);
      warn(
        `dropped a torn record (never acknowledged) at the end of ${segment.path}, byte ${scan.goodBytes}`,
      );
    }
  }
  const last = segments.at(-1) ?? first;
  if (endsNaming !== undefined) {
    const missing = `${join(dir, segmentName(endsNaming))} is missing: ${last.name} ends by naming it as the next segment`;
    if (!options.repair) return { ok: false, error: `${missing}; start with --repair to serve without it` };
    warn(`repair: ${missing}; records from ${endsNaming} on (if there were any) are lost`);
    return { ok: true, value: { state, next, clock, lastSegment: endsNaming } };
  }
  return { ok: true, value: { state, next, clock, lastSegment: last.start } };
}

/**
 * Opens (creating if needed) a data directory.
 * @example const store = await openStore('data', { site: { apiKeys: ['k'] } });
 */
export async function openStore(dir: string, options: DataDirOptions): Promise<Opened<Store>> {
  const files = options.files ?? nodeFiles;
  await files.mkdir(dir);
  const stored = await readSnapshot(dir, files);
  if (!stored.ok) return stored;
  let journal: JournalWriter;
  let loaded: Loaded;
  /** The last snapshot on disk (full or delta) while its state is known: the next can be a delta on it. */
  let last: Snapshot | undefined;
  let chain = { baseBytes: 0, deltaCount: 0, deltaBytes: 0 };
  /** A full snapshot; the deltas it covers go once it is safely in place. */
  const writeBase = async (snapshot: Snapshot): Promise<void> => {
    last = undefined;
    const baseBytes = await writeSnapshot(dir, snapshot, files);
    for (const delta of await deltaFiles(dir, files))
      if (delta.position <= snapshot.position) await files.rm(join(dir, delta.name));
    await files.syncDirectory(dir);
    chain = { baseBytes, deltaCount: 0, deltaBytes: 0 };
    last = snapshot;
  };
  if (stored.value === undefined) {
    for (const segment of await segmentsOf(dir, files))
      if ((await files.readFile(segment.path)).length > 0)
        return {
          ok: false,
          error: `${join(dir, 'snapshot.json')} is missing, but the journal holds records (${segment.path}); restore the snapshot`,
        };
    const portalSecret = options.portalSecret ?? options.site.portalSecret ?? randomPortalSecret();
    const state = createSite({ ...options.site, portalSecret });
    // The segment first: a snapshot is never without the segment its position starts.
    journal = await JournalWriter.open(dir, 0, files);
    try {
      await writeBase({ position: 0, state });
    } catch (error) {
      await journal.close().catch(() => {});
      throw error;
    }
    loaded = { state, next: 0, clock: undefined, lastSegment: 0 };
  } else {
    // A snapshot an earlier version wrote lacks the tables added since.
    // The snapshot's reader restored the sharing already (upgradeState would do it twice).
    const upgraded = { ...stored.value, state: fillLaterTables(stored.value.state) };
    const replayed = await replay(dir, options, files, upgraded);
    if (!replayed.ok) return replayed;
    if (stored.value.exact) last = { position: stored.value.position, state: stored.value.state };
    chain = stored.value;
    loaded = replayed.value;
    journal = await JournalWriter.open(dir, loaded.lastSegment, files);
    const current = loaded.state.settings.portalSecret;
    let secret = options.portalSecret;
    if (secret === undefined && (current === null || current === publicDefaultSecret(loaded.state))) {
      secret = randomPortalSecret();
      options.warn?.(
        'the site had no private portal secret; a random one was generated (earlier portal links are void)',
      );
    }
    if (secret !== undefined && secret !== current) {
      // Replay must never cross a secret change (generated token names derive from it): snapshot now.
      loaded = { ...loaded, state: withPortalSecret(loaded.state, secret) };
      journal.rotate(loaded.next);
      try {
        await journal.flushed();
        await writeBase({ position: loaded.next, state: loaded.state });
      } catch (error) {
        await journal.close().catch(() => {});
        throw error;
      }
    }
  }
  const every = Math.max(1, options.snapshotEvery ?? DEFAULT_SNAPSHOT_EVERY);
  let next = loaded.next;
  let sinceSnapshot = 0;
  /** The state after the last journaled change: a snapshot that fell due during another is taken from it. */
  let latest: SiteState | undefined;
  let closing = false;
  let snapshotting: Promise<void> | undefined;

  /**
   * Snapshot at `position` once the journal has rotated there: the pieces changed since the last
   * snapshot when its state is known and the chain is short, else the whole state. Covered segments go
   * only after.
   */
  const snapshot = async (state: SiteState, position: number): Promise<void> => {
    await journal.flushed();
    const from = last;
    if (
      from !== undefined &&
      from.position < position &&
      chain.deltaCount < MAX_DELTAS &&
      chain.deltaBytes * 2 < chain.baseBytes
    ) {
      // Until a delta is known to be in place, the next snapshot is a full one: a delta left on disk by a
      // failed write must never be followed by one that skips it.
      last = undefined;
      const bytes = await writeSnapshotDelta(dir, { from, to: { position, state } }, files);
      chain = { ...chain, deltaCount: chain.deltaCount + 1, deltaBytes: chain.deltaBytes + bytes };
      last = { position, state };
    } else if (from === undefined || from.position < position) await writeBase({ position, state });
    for (const segment of await segmentsOf(dir, files))
      if (segment.start < position) await files.rm(segment.path);
  };

  const snapshotInBackground = (state: SiteState) => {
    if (snapshotting !== undefined) return;
    sinceSnapshot = 0;
    const position = next;
    journal.rotate(position);
    // The state is immutable, so it can be written while later requests move on.
    snapshotting = snapshot(state, position)
      .catch((error: unknown) =>
        options.warn?.(
          `snapshot failed (the journal still holds everything): ${error instanceof Error ? error.message : error}`,
        ),
      )
      .finally(() => {
        snapshotting = undefined;
        // One fell due while this one was written: take it now rather than at the next change.
        if (sinceSnapshot >= every && latest !== undefined && journal.failed === undefined && !closing)
          snapshotInBackground(latest);
      });
  };

  const store: Store = {
    state: loaded.state,
    clock: loaded.clock,
    commit: (applied) => {
      if (journal.failed !== undefined) return Promise.reject(journal.failed);
      if (applied.changed) {
        // A refused request (or a fault) changed only what fell due by then: `advance` redoes exactly
        // that, where replaying the request might not (a 401 replayed with the site's key).
        const payments = applied.payments.length === 0 ? {} : { payments: [...applied.payments] };
        if (applied.response.status >= 400)
          journal.append({ seq: next, kind: 'advance', now: applied.now, ...payments });
        else {
          const { method, path, body } = applied.request;
          const request = body === undefined ? { method, path } : { method, path, body };
          journal.append({ seq: next, kind: 'request', now: applied.now, request, ...payments });
        }
        next += 1;
        sinceSnapshot += 1;
        latest = applied.state;
        if (sinceSnapshot >= every) snapshotInBackground(applied.state);
      }
      return journal.flushed();
    },
    recordClock: (now) => {
      journal.append({ seq: next, kind: 'clock', now });
      next += 1;
    },
    failure: () => journal.failed,
    close: async (finalState) => {
      closing = true;
      await snapshotting;
      if (journal.failed !== undefined) {
        await journal.close().catch(() => {});
        return;
      }
      if (finalState === undefined) {
        await journal.close();
        return;
      }
      journal.rotate(next);
      await journal.close();
      await snapshot(finalState, next);
    },
  };
  return { ok: true, value: store };
}
