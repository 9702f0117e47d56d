/**
 * Snapshots of `billing-core serve --data-dir`: the whole site state, and the journal position it
 * covers (records numbered below it are in it). Written to a temporary file (every byte, short writes
 * continued), fsynced, read back and checked against its checksum, and only then renamed over the
 * previous one: a crash or a full disk leaves either the old snapshot or the new one, never half of one.
 *
 * The file is a header line `{"format", "version", "position", "bytes", "crc32"}` and the state's JSON.
 */

import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { z } from 'zod';
import { withPresentedBreakouts } from '../domain/invoice/stored-breakouts.js';
import { rebuiltListIndexes } from '../engine/list-index.js';
import { rebuiltSetIndexes } from '../engine/set-index.js';
import type { SiteState } from '../engine/state.js';
import { emptyList, indexEntries, tableReplace, tableRows } from '../kernel/collection.js';
import { type FileLayer, nodeFiles, writeAll } from './files.js';

export const SNAPSHOT_FILE = 'snapshot.json';
const FORMAT = 'billing-core-snapshot';

const headerSchema = z.object({
  format: z.literal(FORMAT),
  version: z.literal(1),
  position: z.number().int().min(0),
  bytes: z.number().int().min(0),
  crc32: z.number().int().min(0),
});

export interface Snapshot {
  /** The first journal record not in the snapshot. */
  readonly position: number;
  readonly state: SiteState;
}

/** The snapshot's bytes: the header line, then the state's JSON. */
function encodeSnapshot(snapshot: Snapshot): Buffer {
  const body = Buffer.from(JSON.stringify(snapshot.state), 'utf8');
  const header = {
    format: FORMAT,
    version: 1,
    position: snapshot.position,
    bytes: body.length,
    crc32: crc32(body),
  };
  return Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`), body]);
}

/** The header and body of snapshot bytes, when the body matches the header's length and checksum. */
function decodeSnapshotBytes(
  bytes: Buffer,
): { readonly position: number; readonly body: Buffer } | undefined {
  const newline = bytes.indexOf(10);
  if (newline < 0) return undefined;
  try {
    const header = headerSchema.safeParse(JSON.parse(bytes.subarray(0, newline).toString('utf8')));
    const body = bytes.subarray(newline + 1);
    if (!header.success || header.data.bytes !== body.length || header.data.crc32 !== crc32(body))
      return undefined;
    return { position: header.data.position, body };
  } catch {
    return undefined;
  }
}

/**
 * Writes the snapshot atomically: temporary file, every byte written, fsync, read back and verified,
 * rename, directory fsync. Throws (leaving the previous snapshot in place) when any step fails.
 */
export async function writeSnapshot(
  dir: string,
  snapshot: Snapshot,
  files: FileLayer = nodeFiles,
): Promise<void> {
  const bytes = encodeSnapshot(snapshot);
  const temporary = join(dir, `${SNAPSHOT_FILE}.tmp`);
  try {
    const file = await files.open(temporary, 'w');
    try {
      await writeAll(file, bytes);
      await file.sync();
    } finally {
      await file.close();
    }
    const written = await files.readFile(temporary);
    const decoded = decodeSnapshotBytes(written);
    if (!written.equals(bytes) || decoded?.position !== snapshot.position)
      throw new Error(
        `${temporary} does not read back as written (${written.length} of ${bytes.length} bytes)`,
      );
  } catch (error) {
    await files.rm(temporary).catch(() => {});
    throw error;
  }
  await files.rename(temporary, join(dir, SNAPSHOT_FILE));
  await files.syncDirectory(dir);
}

/** The little a loaded state is checked for: the checksum already vouches for the bytes. */
function isSiteState(value: unknown): value is SiteState {
  if (typeof value !== 'object' || value === null) return false;
  const tables: unknown = Reflect.get(value, 'tables');
  const settings: unknown = Reflect.get(value, 'settings');
  return Reflect.get(value, 'schema') === 1 && typeof tables === 'object' && typeof settings === 'object';
}

/** A state written before the set indexes existed gets them, built from its tables. */
const withSetIndexes = (state: SiteState): SiteState =>
  Reflect.get(state, 'setIndexes') === undefined ? { ...state, setIndexes: rebuiltSetIndexes(state) } : state;

/**
 * A state written before the books existed starts them empty: its past movements were never posted, so
 * `checkLedger` finds them unbooked, but the engine works on.
 */
const withLedger = (state: SiteState): SiteState =>
  Reflect.get(state, 'ledger') === undefined ? { ...state, ledger: emptyList() } : state;

/** A state written while list indexes held arrays of ids gets them as id sets, built from its tables. */
function withListSets(state: SiteState): SiteState {
  const arrays = Object.values(state.listIndexes).some((index) => {
    for (const [, ids] of indexEntries(index)) return Array.isArray(ids);
    return false;
  });
  return arrays ? { ...state, listIndexes: rebuiltListIndexes(state) } : state;
}

/** A state written before breakouts were kept as presented gets them renamed (stored-breakouts.ts). */
function withBreakoutsAsPresented(state: SiteState): SiteState {
  let invoices = state.tables.invoices;
  for (const invoice of tableRows(state.tables.invoices)) {
    const renamed = withPresentedBreakouts(invoice);
    if (renamed !== invoice) invoices = tableReplace(invoices, invoice.id, renamed);
  }
  return invoices === state.tables.invoices ? state : { ...state, tables: { ...state.tables, invoices } };
}

/** Reads the snapshot: undefined when there is none, an error when it is damaged. */
export async function readSnapshot(
  dir: string,
  files: FileLayer = nodeFiles,
): Promise<{ ok: true; value: Snapshot | undefined } | { ok: false; error: string }> {
  await files.rm(join(dir, `${SNAPSHOT_FILE}.tmp`));
  let bytes: Buffer;
  try {
    bytes = await files.readFile(join(dir, SNAPSHOT_FILE));
  } catch (error) {
    if (error instanceof Error && Reflect.get(error, 'code') === 'ENOENT')
      return { ok: true, value: undefined };
    throw error;
  }
  const damaged = {
    ok: false,
    error: `${join(dir, SNAPSHOT_FILE)} is damaged (${bytes.length} bytes; its checksum or shape does not hold)`,
  } as const;
  const decoded = decodeSnapshotBytes(bytes);
  if (decoded === undefined) return damaged;
  try {
    const state: unknown = JSON.parse(decoded.body.toString('utf8'));
    if (!isSiteState(state)) return damaged;
    const upgraded = withLedger(withBreakoutsAsPresented(withListSets(withSetIndexes(state))));
    return { ok: true, value: { position: decoded.position, state: upgraded } };
  } catch {
    return damaged;
  }
}
