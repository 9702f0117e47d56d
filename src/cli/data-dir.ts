/**
 * The data directory of `billing-core serve --data-dir`: a snapshot, and the journal of what changed
 * since. Opening loads the snapshot and replays the journal through `handle`; serving appends every
 * request that changed the state (flushed before its response is sent; a refused one, which changed only
 * what fell due, as an `advance` to its instant) and, every so many records,
 * writes a new snapshot and starts a new journal segment, deleting the segments it covers.
 *
 * The site's configuration is fixed when the directory is created (a snapshot at position 0 is written
 * at once); later starts use the stored site.
 */

import { mkdir, readdir, readFile, rm, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import type { AppliedRequest } from '../adapters/fetch.js';
import { handle } from '../api/handle.js';
import type { ApiRequest } from '../api/types.js';
import type { SiteConfig } from '../domain/site/config.js';
import { advance } from '../engine/advance.js';
import { createSite, type SiteState } from '../engine/state.js';
import { type JournalEntry, JournalWriter, scanJournal, segmentStart } from './journal.js';
import { readSnapshot, writeSnapshot } from './snapshot.js';

export const DEFAULT_SNAPSHOT_EVERY = 1000;

export interface DataDirOptions {
  /** The configuration of a new site (when the directory holds none yet). */
  readonly site: SiteConfig;
  /** Journal records between snapshots. */
  readonly snapshotEvery?: number;
  /** Where to report what was repaired on opening, and snapshots that failed. */
  readonly warn?: (message: string) => void;
}

export interface Store {
  /** The state as loaded: snapshot plus journal. */
  readonly state: SiteState;
  /** The latest test clock move in the journal, if any. */
  readonly clock: string | undefined;
  /** Journals a request if it changed the state; resolves once it (and all before it) is on disk. */
  readonly commit: (applied: AppliedRequest) => Promise<void>;
  /** Journals a test clock move (flushed with the next `commit`). */
  readonly recordClock: (now: string) => void;
  /** Flushes and closes the journal; with a state, writes a final snapshot of it first. */
  readonly close: (finalState?: SiteState) => Promise<void>;
}

/** Replay authenticates with the site's own key: journal records keep no credentials. */
function replayRequest(state: SiteState, entry: Extract<JournalEntry, { kind: 'request' }>): ApiRequest {
  const key = state.settings.apiKeys?.[0];
  const base = { method: entry.request.method, path: entry.request.path };
  const headers = key === undefined ? {} : { headers: { authorization: `Basic ${btoa(`${key}:x`)}` } };
  return entry.request.body === undefined
    ? { ...base, ...headers }
    : { ...base, ...headers, body: entry.request.body };
}

async function segmentsOf(dir: string): Promise<{ readonly start: number; readonly path: string }[]> {
  const segments = [];
  for (const name of await readdir(dir)) {
    const start = segmentStart(name);
    if (start !== undefined) segments.push({ start, path: join(dir, name) });
  }
  return segments.sort((a, b) => a.start - b.start);
}

type Loaded = { state: SiteState; next: number; clock: string | undefined; lastSegment: number };

async function load(
  dir: string,
  options: DataDirOptions,
): Promise<{ ok: true; value: Loaded } | { ok: false; error: string }> {
  const snapshot = await readSnapshot(dir);
  if (!snapshot.ok) return snapshot;
  let state: SiteState;
  let next: number;
  if (snapshot.value === undefined) {
    state = createSite(options.site);
    next = 0;
    await writeSnapshot(dir, { position: 0, state });
  } else {
    ({ state, position: next } = snapshot.value);
  }
  let clock: string | undefined;
  const segments = await segmentsOf(dir);
  for (const [index, segment] of segments.entries()) {
    const scan = scanJournal(await readFile(segment.path));
    if (!scan.ok) return { ok: false, error: `${segment.path}: ${scan.error}` };
    for (const entry of scan.entries) {
      if (entry.seq < next) continue;
      if (entry.seq !== next) return { ok: false, error: `${segment.path}: record ${next} is missing` };
      if (entry.kind === 'clock') clock = entry.now;
      else if (entry.kind === 'advance') state = advance(state, { now: entry.now }).state;
      else state = handle(state, replayRequest(state, entry), { now: entry.now }).state;
      next += 1;
    }
    if (scan.torn) {
      if (index !== segments.length - 1)
        return { ok: false, error: `${segment.path}: damaged before later segments` };
      await truncate(segment.path, scan.goodBytes);
      options.warn?.(`dropped a torn record at the end of ${segment.path}`);
    }
  }
  const lastSegment = segments.at(-1)?.start ?? next;
  return { ok: true, value: { state, next, clock, lastSegment } };
}

/**
 * Opens (creating if needed) a data directory.
 * @example const store = await openStore('data', { site: { apiKeys: ['k'] } });
 */
export async function openStore(
  dir: string,
  options: DataDirOptions,
): Promise<{ ok: true; value: Store } | { ok: false; error: string }> {
  await mkdir(dir, { recursive: true });
  const loaded = await load(dir, options);
  if (!loaded.ok) return loaded;
  const every = Math.max(1, options.snapshotEvery ?? DEFAULT_SNAPSHOT_EVERY);
  let next = loaded.value.next;
  let sinceSnapshot = 0;
  let snapshotting: Promise<void> | undefined;
  const journal = await JournalWriter.open(dir, loaded.value.lastSegment);

  const snapshot = (state: SiteState, position: number): Promise<void> =>
    writeSnapshot(dir, { position, state }).then(async () => {
      for (const segment of await segmentsOf(dir))
        if (segment.start < position) await rm(segment.path, { force: true });
    });

  const snapshotInBackground = (state: SiteState) => {
    if (snapshotting !== undefined) return;
    sinceSnapshot = 0;
    journal.rotate(next);
    // The state is immutable, so it can be written while later requests move on.
    snapshotting = snapshot(state, next)
      .catch((error: unknown) =>
        options.warn?.(`snapshot failed: ${error instanceof Error ? error.message : error}`),
      )
      .finally(() => {
        snapshotting = undefined;
      });
  };

  const store: Store = {
    state: loaded.value.state,
    clock: loaded.value.clock,
    commit: (applied) => {
      if (applied.changed) {
        // A refused request (or a fault) changed only what fell due by then: `advance` redoes exactly
        // that, where replaying the request might not (a 401 replayed with the site's key).
        if (applied.response.status >= 400) journal.append({ seq: next, kind: 'advance', now: applied.now });
        else {
          const { method, path, body } = applied.request;
          const request = body === undefined ? { method, path } : { method, path, body };
          journal.append({ seq: next, kind: 'request', now: applied.now, request });
        }
        next += 1;
        sinceSnapshot += 1;
        if (sinceSnapshot >= every) snapshotInBackground(applied.state);
      }
      return journal.flushed();
    },
    recordClock: (now) => {
      journal.append({ seq: next, kind: 'clock', now });
      next += 1;
    },
    close: async (finalState) => {
      await snapshotting;
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
