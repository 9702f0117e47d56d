/**
 * Snapshots of `billing-core serve --data-dir`: the whole site state, and the journal position it
 * covers (records numbered below it are in it). Written to a temporary file (every byte, short writes
 * continued), fsynced, read back and checked against its checksum, and only then renamed over the
 * previous one: a crash or a full disk leaves either the old snapshot or the new one, never half of one.
 *
 * Version 2, written now: the state's pieces, one JSON line each (snapshot-pieces.ts), so no string of
 * the whole state is ever built, then a trailer line `{"format", "version", "position", "bytes",
 * "crc32"}` covering every byte before it. The pieces are written in slices that yield to the event loop,
 * so a large site's snapshot never holds up requests for long. Version 1, which is still read, was a
 * header line of the same fields followed by the state's JSON.
 */

import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { z } from 'zod';
import { withPresentedBreakouts } from '../domain/invoice/stored-breakouts.js';
import { rebuiltListIndexes } from '../engine/list-index.js';
import { changedPieces, PieceAssembler, pieces, piecesText } from '../engine/persistence/pieces.js';
import { PieceSharing, shareLoadedState } from '../engine/persistence/share.js';
import { rebuiltSetIndexes } from '../engine/set-index.js';
import { fillLaterTables, type SiteState } from '../engine/state.js';
import { emptyList, indexEntries, tableReplace, tableRows } from '../kernel/collection.js';
import { firstByteOf, type LinesRead, readLineBytes } from './file-lines.js';
import { type FileLayer, nodeFiles, type WritableFile, writeAll } from './files.js';
import { parsePieceLine } from './piece-line.js';

export const SNAPSHOT_FILE = 'snapshot.json';
const FORMAT = 'billing-core-snapshot';

/** The header (version 1) or trailer (version 2) line: what the rest of the file must be. */
const metaSchema = <V extends 1 | 2>(version: V) =>
  z.object({
    format: z.literal(FORMAT),
    version: z.literal(version),
    position: z.number().int().min(0),
    bytes: z.number().int().min(0),
    crc32: z.number().int().min(0),
  });
const headerSchema = metaSchema(1);
const trailerSchema = metaSchema(2);

export interface Snapshot {
  /** The first journal record not in the snapshot. */
  readonly position: number;
  readonly state: SiteState;
}

/** What a header (version 1) or trailer (version 2) says of a snapshot. */
interface SnapshotMeta {
  readonly position: number;
  readonly bytes: number;
  readonly crc32: number;
}

/** A header or trailer line, read with its version's schema; undefined when it is not one. */
function metaOf(text: string, schema: typeof headerSchema | typeof trailerSchema): SnapshotMeta | undefined {
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** The body and position, when the header or trailer vouches for the body's length and checksum. */
function vouched(
  meta: SnapshotMeta | undefined,
  body: Buffer,
): { readonly position: number; readonly body: Buffer } | undefined {
  if (meta === undefined || meta.bytes !== body.length || meta.crc32 !== crc32(body)) return undefined;
  return { position: meta.position, body };
}

/** The header and body of version 1 snapshot bytes: a header line, then the state's JSON. */
function decodeSnapshotBytes(
  bytes: Buffer,
): { readonly position: number; readonly body: Buffer } | undefined {
  const newline = bytes.indexOf(10);
  if (newline < 0) return undefined;
  return vouched(metaOf(bytes.toString('utf8', 0, newline), headerSchema), bytes.subarray(newline + 1));
}

/**
 * How much of the pieces is gathered before a write, and how long a slice runs before it yields: a
 * request that arrives during a slice waits for its end, so slices are short (a delta of 1,000 signups
 * takes several), and the cost of yielding more often is a few microseconds each time. The text comes in
 * parts of a few rows (`piecesText`), so no single step of a slice is the work of a whole chunk.
 */
const WRITE_BUFFER_BYTES = 1 << 20;
const SLICE_MS = 5;

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** UTF-8 takes at most 3 bytes for each UTF-16 code unit. */
const MAX_UTF8_BYTES_PER_UNIT = 3;

/**
 * Writes text (given in parts) and then a trailer line (made from the text's byte count and checksum),
 * in slices of about `SLICE_MS` that yield to the event loop between them; answers the byte count and
 * the checksum. The parts are encoded into one buffer, written and reused once full: no buffer per part,
 * and nothing for the collector to follow but the parts' strings, which die young.
 */
async function writeText(
  file: WritableFile,
  parts: Iterable<string>,
  trailerOf: (bytes: number, crc: number) => object,
): Promise<{ bytes: number; crc: number }> {
  const buffer = Buffer.allocUnsafe(WRITE_BUFFER_BYTES);
  let used = 0;
  let bytes = 0;
  let crc = 0;
  let sliceStart = performance.now();
  const write = async (encoded: Buffer) => {
    crc = crc32(encoded, crc);
    bytes += encoded.length;
    await writeAll(file, encoded);
    // The loop was free while the write was under way: a new slice starts.
    sliceStart = performance.now();
  };
  const flush = async () => {
    if (used === 0) return;
    const full = buffer.subarray(0, used);
    used = 0;
    await write(full);
  };
  for (const part of parts) {
    if (part.length * MAX_UTF8_BYTES_PER_UNIT > buffer.length - used) {
      await flush();
      if (part.length * MAX_UTF8_BYTES_PER_UNIT > buffer.length) await write(Buffer.from(part, 'utf8'));
      else used += buffer.write(part, used, 'utf8');
    } else used += buffer.write(part, used, 'utf8');
    if (performance.now() - sliceStart >= SLICE_MS) {
      await yieldToEventLoop();
      sliceStart = performance.now();
    }
  }
  await flush();
  await writeAll(file, Buffer.from(`${JSON.stringify(trailerOf(bytes, crc))}\n`));
  return { bytes, crc };
}

/** A trailer is one short line: a longer tail after the body is not one. */
const MAX_TRAILER_BYTES = 64 << 10;

/**
 * Whether a file read back is as written: its trailer (`fits` checks what else it says), length and
 * checksum, read in slices (a large site's snapshot is several GiB; each read yields to the event loop).
 */
async function readsBackAs(
  files: FileLayer,
  path: string,
  written: { readonly bytes: number; readonly crc: number },
  fits: (trailer: string) => SnapshotMeta | undefined,
): Promise<boolean> {
  let offset = 0;
  let crc = 0;
  const tail: Buffer[] = [];
  let tailBytes = 0;
  // Slices of the write buffer's size: the checksum of a slice is computed without yielding, and a delta
  // of a few megabytes read in one slice would hold the event loop for the whole of it.
  for await (const slice of files.readSlices(path, WRITE_BUFFER_BYTES)) {
    const inBody = Math.max(0, Math.min(slice.length, written.bytes - offset));
    if (inBody > 0) crc = crc32(slice.subarray(0, inBody), crc);
    if (inBody < slice.length) {
      tail.push(Buffer.from(slice.subarray(inBody)));
      tailBytes += slice.length - inBody;
      if (tailBytes > MAX_TRAILER_BYTES) return false;
    }
    offset += slice.length;
  }
  const trailerBytes = Buffer.concat(tail);
  if (offset !== written.bytes + trailerBytes.length || trailerBytes.at(-1) !== 10) return false;
  const trailer = fits(trailerBytes.toString('utf8', 0, trailerBytes.length - 1));
  return trailer?.bytes === written.bytes && trailer.crc32 === written.crc && crc === written.crc;
}

/**
 * Writes a file atomically: temporary file, every byte written, fsync, read back and verified against
 * its trailer's length and checksum, rename, directory fsync. Throws (leaving any earlier file of that
 * name in place) when a step fails.
 */
async function writeVerified(
  dir: string,
  name: string,
  text: Iterable<string>,
  trailerOf: (bytes: number, crc: number) => object,
  fits: (trailer: string) => SnapshotMeta | undefined,
  files: FileLayer,
): Promise<number> {
  const temporary = join(dir, `${name}.tmp`);
  let written: { bytes: number; crc: number };
  try {
    const file = await files.open(temporary, 'w');
    try {
      written = await writeText(file, text, trailerOf);
      await file.sync();
    } finally {
      await file.close();
    }
    if (!(await readsBackAs(files, temporary, written, fits)))
      throw new Error(`${temporary} does not read back as written (${written.bytes} bytes and a trailer)`);
  } catch (error) {
    await files.rm(temporary).catch(() => {});
    throw error;
  }
  await files.rename(temporary, join(dir, name));
  await files.syncDirectory(dir);
  return written.bytes;
}

/**
 * Reads a file of pieces line by line into an assembler (no buffer or string of the whole file); `fits`
 * is false when a line did not fit the pieces before it.
 */
async function readPieces(
  files: FileLayer,
  path: string,
  assembler: PieceAssembler,
  sharing: PieceSharing | undefined,
): Promise<LinesRead & { readonly fits: boolean }> {
  let fits = true;
  const share =
    sharing === undefined ? undefined : (at: readonly unknown[], rows: unknown) => sharing.piece(at, rows);
  const read = await readLineBytes(files, path, (line) => {
    if (!fits) return;
    try {
      assembler.addParsed(parsePieceLine(line, share));
    } catch {
      fits = false;
    }
  });
  return { ...read, fits };
}

/**
 * Writes the snapshot atomically (see `writeVerified`); answers the bytes of its pieces. Throws (leaving
 * the previous snapshot in place) when any step fails.
 */
export async function writeSnapshot(
  dir: string,
  snapshot: Snapshot,
  files: FileLayer = nodeFiles,
): Promise<number> {
  return writeVerified(
    dir,
    SNAPSHOT_FILE,
    piecesText(pieces(snapshot.state)),
    (bytes, crc) => ({ format: FORMAT, version: 2, position: snapshot.position, bytes, crc32: crc }),
    (trailer) => {
      const meta = metaOf(trailer, trailerSchema);
      return meta?.position === snapshot.position ? meta : undefined;
    },
    files,
  );
}

/** The file of the changes from one snapshot position to the next. */
export const deltaFileName = (position: number): string =>
  `snapshot-delta.${String(position).padStart(16, '0')}.jsonl`;

const deltaPosition = (name: string): number | undefined => {
  const match = /^snapshot-delta\.(\d{16})\.jsonl$/.exec(name);
  return match === null ? undefined : Number(match[1]);
};

const DELTA_FORMAT = 'billing-core-snapshot-delta';
const deltaTrailerSchema = z.object({
  format: z.literal(DELTA_FORMAT),
  version: z.literal(1),
  from: z.number().int().min(0),
  position: z.number().int().min(0),
  bytes: z.number().int().min(0),
  crc32: z.number().int().min(0),
});

/** What a delta's trailer says: the positions it goes from and to, and its pieces' length and checksum. */
interface DeltaMeta extends SnapshotMeta {
  readonly from: number;
}

function deltaMetaOf(text: string): DeltaMeta | undefined {
  try {
    const parsed = deltaTrailerSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Writes the pieces that changed between the state of the last snapshot (at `from`) and this one (at
 * `position`), atomically as a snapshot is written: the work and the bytes are those of the change,
 * whatever the site holds (its versions share every part the change did not touch). Answers the bytes.
 */
export async function writeSnapshotDelta(
  dir: string,
  delta: { readonly from: Snapshot; readonly to: Snapshot },
  files: FileLayer = nodeFiles,
): Promise<number> {
  const { from, to } = delta;
  return writeVerified(
    dir,
    deltaFileName(to.position),
    piecesText(changedPieces(from.state, to.state)),
    (bytes, crc) => ({
      format: DELTA_FORMAT,
      version: 1,
      from: from.position,
      position: to.position,
      bytes,
      crc32: crc,
    }),
    (trailer) => {
      const meta = deltaMetaOf(trailer);
      return meta?.from === from.position && meta.position === to.position ? meta : undefined;
    },
    files,
  );
}

/** The delta files of a directory, oldest first. */
export async function deltaFiles(
  dir: string,
  files: FileLayer = nodeFiles,
): Promise<{ readonly name: string; readonly position: number }[]> {
  const found: { name: string; position: number }[] = [];
  for (const name of await files.readdir(dir)) {
    const position = deltaPosition(name);
    if (position !== undefined) found.push({ name, position });
  }
  return found.sort((a, b) => a.position - b.position);
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

/**
 * A state written while list indexes held arrays of ids gets them as id sets, built from its tables (the
 * lists keyed by text were rebuilt already, by `fillLaterTables`; references stay keyed by text).
 */
function withListSets(state: SiteState): SiteState {
  let arrays = false;
  for (const [, ids] of indexEntries(state.listIndexes.subscriptionReferences)) {
    arrays = Array.isArray(ids);
    break;
  }
  return arrays ? { ...state, listIndexes: rebuiltListIndexes(state) } : state;
}

/**
 * A state written by an earlier version gets the tables and indexes added since, empty
 * (`fillLaterTables`); one written before subscription references and notes were indexed gets its list
 * indexes rebuilt from its tables, every table being there by then.
 */
function withLaterTables(state: SiteState): SiteState {
  const upgraded = fillLaterTables(state);
  const indexed = Reflect.get(state.listIndexes, 'subscriptionReferences') !== undefined;
  return indexed ? upgraded : { ...upgraded, listIndexes: rebuiltListIndexes(upgraded) };
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

/** A snapshot as read, with what its files hold: the next snapshot may be a delta on top of it. */
export interface StoredSnapshot extends Snapshot {
  /** Whether the state is exactly what the files hold (no older shape was upgraded on reading). */
  readonly exact: boolean;
  /** The bytes of the full snapshot's pieces. */
  readonly baseBytes: number;
  /** The delta files applied on top of it, and their bytes. */
  readonly deltaCount: number;
  readonly deltaBytes: number;
}

type BaseRead =
  | {
      readonly ok: true;
      readonly assembler: PieceAssembler;
      /** Shares the rows of the pieces read next (the deltas'), when those read so far were shared so. */
      readonly sharing: PieceSharing | undefined;
      readonly position: number;
      readonly bodyBytes: number;
    }
  | { readonly ok: false; readonly bytes: number };

/** A version 2 snapshot, line by line: its pieces, vouched for by its trailer. */
async function readVersion2(files: FileLayer, path: string): Promise<BaseRead> {
  // Each piece's rows get the running engine's sharing as they are read (the deltas' too).
  const sharing = new PieceSharing();
  const assembler = new PieceAssembler();
  const read = await readPieces(files, path, assembler, sharing);
  const meta = read.last === undefined ? undefined : metaOf(read.last, trailerSchema);
  if (!read.fits || meta?.bytes !== read.bodyBytes || meta.crc32 !== read.bodyCrc)
    return { ok: false, bytes: read.totalBytes };
  return { ok: true, assembler, sharing, position: meta.position, bodyBytes: read.bodyBytes };
}

/** A version 1 snapshot (a header, then the state's JSON: never past V8's longest string, so one buffer). */
async function readVersion1(files: FileLayer, path: string): Promise<BaseRead> {
  const bytes = await files.readFile(path);
  const decoded = decodeSnapshotBytes(bytes);
  if (decoded === undefined) return { ok: false, bytes: bytes.length };
  try {
    const assembler = PieceAssembler.over(JSON.parse(decoded.body.toString('utf8')));
    return {
      ok: true,
      assembler,
      sharing: undefined,
      position: decoded.position,
      bodyBytes: decoded.body.length,
    };
  } catch {
    return { ok: false, bytes: bytes.length };
  }
}

/** Reads the snapshot and its deltas: undefined when there is none, an error when it is damaged. */
export async function readSnapshot(
  dir: string,
  files: FileLayer = nodeFiles,
): Promise<{ ok: true; value: StoredSnapshot | undefined } | { ok: false; error: string }> {
  await files.rm(join(dir, `${SNAPSHOT_FILE}.tmp`));
  const path = join(dir, SNAPSHOT_FILE);
  let first: number | undefined;
  try {
    first = await firstByteOf(files, path);
  } catch (error) {
    if (error instanceof Error && Reflect.get(error, 'code') === 'ENOENT')
      return { ok: true, value: undefined };
    throw error;
  }
  const damagedAt = (bytes: number) =>
    ({
      ok: false,
      error: `${path} is damaged (${bytes} bytes; its checksum or shape does not hold)`,
    }) as const;
  // Version 2 starts with a piece (`[`), version 1 with its header (`{`).
  const inPieces = first === 0x5b;
  const base = inPieces ? await readVersion2(files, path) : await readVersion1(files, path);
  if (!base.ok) return damagedAt(base.bytes);
  const { assembler, sharing, position, bodyBytes } = base;
  const damaged = damagedAt(bodyBytes);
  const withDeltas = await applyDeltas(dir, files, { assembler, sharing }, position);
  if (!withDeltas.ok) return withDeltas;
  try {
    const state: unknown = assembler.value();
    if (!isSiteState(state)) return damaged;
    const read = withLedger(withBreakoutsAsPresented(withListSets(withLaterTables(withSetIndexes(state)))));
    // Pieces were shared as they were read; a version 1 state read whole is shared now, in place.
    const upgraded = inPieces ? read : shareLoadedState(read);
    return {
      ok: true,
      value: {
        position: withDeltas.position,
        state: upgraded,
        exact: upgraded === state,
        baseBytes: bodyBytes,
        deltaCount: withDeltas.count,
        deltaBytes: withDeltas.bytes,
      },
    };
  } catch {
    return damaged;
  }
}

/**
 * Applies the delta files that continue the snapshot, in order, and answers the position reached. One
 * the snapshot already covers (a crash came before it was removed) is passed over; a damaged one, or a
 * gap between them, refuses: the journal they covered is gone.
 */
async function applyDeltas(
  dir: string,
  files: FileLayer,
  into: { readonly assembler: PieceAssembler; readonly sharing: PieceSharing | undefined },
  start: number,
): Promise<{ ok: true; position: number; count: number; bytes: number } | { ok: false; error: string }> {
  let position = start;
  let count = 0;
  let total = 0;
  for (const delta of await deltaFiles(dir, files)) {
    if (delta.position <= position) continue;
    const path = join(dir, delta.name);
    // Read into the assembler before the trailer is checked: a delta that fails refuses the whole start.
    const read = await readPieces(files, path, into.assembler, into.sharing);
    const meta = read.last === undefined ? undefined : deltaMetaOf(read.last);
    if (meta?.bytes !== read.bodyBytes || meta.crc32 !== read.bodyCrc || meta.position !== delta.position)
      return {
        ok: false,
        error: `${path} is damaged (${read.totalBytes} bytes; its checksum or shape does not hold): the journal it covers was deleted after it was written`,
      };
    if (meta.from !== position)
      return {
        ok: false,
        error: `${path} continues from journal record ${meta.from}, but the snapshot and the deltas before it reach ${position}: a delta is missing`,
      };
    if (!read.fits) return { ok: false, error: `${path} does not fit the snapshot before it` };
    position = meta.position;
    count += 1;
    total += read.bodyBytes;
  }
  return { ok: true, position, count, bytes: total };
}
