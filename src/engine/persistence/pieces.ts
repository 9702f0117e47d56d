/**
 * A site state as lines of pieces, so that no string of the whole state is ever built: V8 cannot hold a
 * string over 512 MiB, which `JSON.stringify` of a site reaches at about 88,000 subscriptions. Each line
 * is `[path, value]`. An object, or an array of arrays or longer than a chunk, is written as an empty
 * shell followed by its members; anything else (a chunk of up to 1,000 rows, a row, a number) is written
 * whole. Reading the lines in order and setting each value at its path gives the state back, equal to
 * `JSON.parse(JSON.stringify(state))`.
 *
 * Versions of a state share every part a change did not touch (the same objects, by reference), so the
 * pieces that differ between two versions are found by walking only what changed: `changedPieceLines`
 * costs what the change wrote, not what the site holds. A line `[path]` without a value deletes.
 */

import { CHUNK_SIZE } from '../../kernel/collection.js';

type Path = readonly (string | number)[];

const isContainer = (value: unknown): value is object => typeof value === 'object' && value !== null;

/** Whether a value is written as a shell and its members rather than whole. */
function splits(value: object): boolean {
  if (!Array.isArray(value)) return true;
  return value.length > CHUNK_SIZE || value.some((member) => Array.isArray(member));
}

/** An array written whole (a chunk of up to 1,000 rows): its rows can be rewritten one by one. */
const isChunk = (value: unknown): value is readonly unknown[] => Array.isArray(value) && !splits(value);

/** Values a row may hold and still be written whole when it changes. */
const LARGE_ROW_VALUES = 1024;

/** Whether a value holds more than `LARGE_ROW_VALUES` values, counted only until it does. */
const isLarge = (value: unknown): boolean => valuesLeft(value, LARGE_ROW_VALUES) < 0;

/** `budget` less the values `value` holds (itself included), stopping once below 0. */
function valuesLeft(value: unknown, budget: number): number {
  let left = budget - 1;
  if (!isContainer(value)) return left;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length && left >= 0; index += 1) left = valuesLeft(value[index], left);
    return left;
  }
  for (const key in value) {
    if (left < 0) break;
    left = valuesLeft(Reflect.get(value, key), left);
  }
  return left;
}

/**
 * The state's pieces, in order, each the JSON text of one line (without its newline).
 * @example [...pieceLines({ a: [1, 2] })] // ['[[],{}]', '[["a"],[1,2]]']
 */
export function* pieceLines(value: unknown, path: Path = []): Generator<string> {
  for (const piece of pieces(value, path)) yield JSON.stringify(piece);
}

/**
 * One piece: `[path, value]`, or `[path]` (a deletion). Its line is its JSON text; `piecesText` writes
 * the same text in short parts.
 */
export type Piece =
  | readonly [readonly (string | number)[], unknown]
  | readonly [readonly (string | number)[]];

/** The state's pieces, in order: those whose JSON texts `pieceLines` answers. */
export function* pieces(value: unknown, path: Path = []): Generator<Piece> {
  if (!isContainer(value) || !splits(value)) {
    yield [path, value ?? null];
    return;
  }
  if (Array.isArray(value)) {
    yield [path, []];
    for (let index = 0; index < value.length; index += 1) yield* pieces(value[index], [...path, index]);
    return;
  }
  yield [path, {}];
  for (const [key, member] of Object.entries(value)) {
    // As JSON.stringify does: a property whose value is undefined or a function is left out.
    if (member === undefined || typeof member === 'function') continue;
    yield* pieces(member, [...path, key]);
  }
}

/**
 * The pieces that turn `previous` into `next`, each the JSON text of one line: parts shared by reference
 * are skipped, a changed member is written again (whole, or as its own changed pieces when it splits),
 * a removed property is a deletion `[path]`. A list that grows writes its changed and its new members;
 * one that shrinks is written again whole. In a chunk written whole, only its replaced and appended rows
 * are written, and a large replaced row (an index's set of ids) only what changed in it.
 * @example [...changedPieceLines({ a: 1, b: [[1]] }, { a: 2, b: [[1]] })] // ['[["a"],2]', ...]
 */
export function* changedPieceLines(previous: unknown, next: unknown, path: Path = []): Generator<string> {
  for (const piece of changedPieces(previous, next, path)) yield JSON.stringify(piece);
}

/** The pieces that turn `previous` into `next`: those whose JSON texts `changedPieceLines` answers. */
export function changedPieces(previous: unknown, next: unknown, path: Path = []): Generator<Piece> {
  return changedLines(previous, next, path, false);
}

/** The names of an object's members JSON writes, in order. */
const writtenKeys = (value: object): string[] =>
  Object.keys(value).filter((key) => {
    const member: unknown = Reflect.get(value, key);
    return member !== undefined && typeof member !== 'function';
  });

/**
 * Whether an object inside a row can be written as its changed members: none removed and none added
 * but at its end, so that a copy fed the pieces has its members in the same order. A piece store keeps
 * one entry per piece written, and a row is one piece: a deletion inside it would have none to remove.
 */
function keepsMemberOrder(previous: object, next: object): boolean {
  const before = writtenKeys(previous);
  const after = writtenKeys(next);
  return after.length >= before.length && before.every((key, index) => after[index] === key);
}

function* changedLines(previous: unknown, next: unknown, path: Path, withinRow: boolean): Generator<Piece> {
  if (previous === next) return;
  const bothSplit =
    isContainer(previous) &&
    isContainer(next) &&
    splits(previous) &&
    splits(next) &&
    Array.isArray(previous) === Array.isArray(next);
  if (!bothSplit) {
    if (isChunk(previous) && isChunk(next) && next.length >= previous.length) {
      for (let index = 0; index < previous.length; index += 1) {
        const row: unknown = next[index];
        if (previous[index] === row) continue;
        if (isLarge(row)) yield* changedLines(previous[index], row, [...path, index], true);
        else yield [[...path, index], row ?? null];
      }
      for (let index = previous.length; index < next.length; index += 1)
        yield [[...path, index], next[index] ?? null];
      return;
    }
    yield* wholeLines(next, path, withinRow);
    return;
  }
  if (Array.isArray(previous) && Array.isArray(next)) {
    if (next.length < previous.length) {
      yield* wholeLines(next, path, withinRow);
      return;
    }
    // A list of chunks grows at its end: a table that opens a chunk writes that chunk, not every chunk.
    for (let index = 0; index < previous.length; index += 1)
      yield* memberLines(previous[index], next[index], [...path, index], withinRow);
    for (let index = previous.length; index < next.length; index += 1)
      yield* wholeLines(next[index], [...path, index], withinRow);
    return;
  }
  if (withinRow && !keepsMemberOrder(previous, next)) {
    yield [path, next];
    return;
  }
  for (const [key, member] of Object.entries(previous)) {
    const kept: unknown = Reflect.get(next, key);
    if (member !== undefined && (kept === undefined || typeof kept === 'function')) yield [[...path, key]];
  }
  for (const [key, member] of Object.entries(next)) {
    if (member === undefined || typeof member === 'function') continue;
    const before: unknown = Reflect.get(previous, key);
    if (before === undefined) yield* wholeLines(member, [...path, key], withinRow);
    else yield* memberLines(before, member, [...path, key], withinRow);
  }
}

/**
 * A changed member. Inside a row, only a large member is written as its changes: a small one is written
 * whole, so that no piece's path goes through a small value. A reader may share small values between
 * rows (one object for an invoice's customer and payer, the frozen empty list), and a piece set inside
 * one would change them all.
 */
function* memberLines(previous: unknown, next: unknown, path: Path, withinRow: boolean): Generator<Piece> {
  if (previous === next) return;
  if (withinRow && !isLarge(next)) yield [path, next ?? null];
  else yield* changedLines(previous, next, path, withinRow);
}

/** A value written again: as its pieces, or inside a row as one line. */
function* wholeLines(value: unknown, path: Path, withinRow: boolean): Generator<Piece> {
  if (withinRow) yield [path, value ?? null];
  else yield* pieces(value, path);
}

/**
 * The text of pieces, each line ended by a newline, in parts: the concatenation is exactly the lines
 * `pieceLines` or `changedPieceLines` answer, but no part is the text of a large value whole. A chunk of
 * 1,000 rows is megabytes of JSON, and a writer that yields to its callers between parts then never
 * holds them up for the time of a whole chunk.
 */
export function* piecesText(pieces: Iterable<Piece>): Generator<string> {
  for (const piece of pieces) {
    const value = piece.length === 1 ? undefined : piece[1];
    if (!isChunkText(value)) yield `${JSON.stringify(piece)}\n`;
    else yield* chunkParts(piece[0], value);
  }
}

/** An array written as its members' texts (not one with a `toJSON` of its own, which JSON would call). */
const isChunkText = (value: unknown): value is readonly unknown[] =>
  Array.isArray(value) && value.length > 1 && typeof Reflect.get(value, 'toJSON') !== 'function';

/** Members' texts are gathered into parts of about this many characters (a few rows of a chunk). */
const PART_CHARS = 16_384;

/**
 * The line of a piece whose value is an array (a chunk of rows), as its members' texts gathered into
 * parts of about `PART_CHARS`. Rows are not split further: telling a large row from a small one costs a
 * walk through each, more than writing it.
 */
function* chunkParts(path: readonly (string | number)[], members: readonly unknown[]): Generator<string> {
  let part = `[${JSON.stringify(path)},[`;
  for (let index = 0; index < members.length; index += 1) {
    if (index > 0) part += ',';
    // What JSON writes for a member it cannot write (undefined, a function): null.
    part += JSON.stringify(members[index]) ?? 'null';
    if (part.length >= PART_CHARS) {
      yield part;
      part = '';
    }
  }
  yield `${part}]]\n`;
}

/**
 * Reassembles pieces, line by line, into the value they were cut from; then takes the changed pieces of
 * later versions, so a host can keep a full copy once and append only what each change wrote.
 */
export class PieceAssembler {
  private root: unknown;
  private started = false;

  /**
   * @param onPiece sees each piece's value as it is read, before it is set at its path, and may change
   * it in place for an equal one (the loaders share what the running engine shares: `PieceSharing`).
   */
  constructor(private readonly onPiece?: (path: readonly unknown[], value: unknown) => void) {}

  /**
   * An assembler that starts from a value already whole (a state parsed from JSON), to take the changed
   * pieces of later versions. The value is changed in place.
   */
  static over(root: unknown): PieceAssembler {
    const assembler = new PieceAssembler();
    assembler.root = root;
    assembler.started = true;
    return assembler;
  }

  /** Takes one line's `[path, value]` (or `[path]`, a deletion); throws when it does not fit what came before. */
  add(line: string): void {
    this.addParsed(JSON.parse(line));
  }

  /** Takes one line's value, parsed by the caller (as `JSON.parse` parses it); throws as `add` does. */
  addParsed(piece: unknown): void {
    if (!Array.isArray(piece) || (piece.length !== 1 && piece.length !== 2) || !Array.isArray(piece[0]))
      throw new Error('a snapshot piece is not [path, value] or [path]');
    const [path, value] = piece as [unknown[], unknown];
    const deletes = piece.length === 1;
    if (!deletes) this.onPiece?.(path, value);
    if (path.length === 0) {
      if (deletes) throw new Error('a snapshot piece deletes the root');
      // A later version's root replaces the whole value (a change that touched everything).
      this.root = value;
      this.started = true;
      return;
    }
    let parent: unknown = this.root;
    for (const key of path.slice(0, -1))
      parent = isContainer(parent) ? Reflect.get(parent, String(key)) : undefined;
    const last = path.at(-1);
    if (!isContainer(parent) || (typeof last !== 'string' && typeof last !== 'number'))
      throw new Error(`a snapshot piece at ${JSON.stringify(path)} has no parent`);
    if (deletes) {
      Reflect.deleteProperty(parent, String(last));
      return;
    }
    // Defined, not assigned, so that a key such as "__proto__" is an ordinary property, as JSON.parse makes it.
    Object.defineProperty(parent, String(last), {
      value,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  }

  /** The value assembled; throws when no piece came. */
  value(): unknown {
    if (!this.started) throw new Error('a snapshot has no pieces');
    return this.root;
  }
}
