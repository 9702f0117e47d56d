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

/**
 * The state's pieces, in order, each the JSON text of one line (without its newline).
 * @example [...pieceLines({ a: [1, 2] })] // ['[[],{}]', '[["a"],[1,2]]']
 */
export function* pieceLines(value: unknown, path: Path = []): Generator<string> {
  if (!isContainer(value) || !splits(value)) {
    yield JSON.stringify([path, value ?? null]);
    return;
  }
  if (Array.isArray(value)) {
    yield JSON.stringify([path, []]);
    for (let index = 0; index < value.length; index += 1) yield* pieceLines(value[index], [...path, index]);
    return;
  }
  yield JSON.stringify([path, {}]);
  for (const [key, member] of Object.entries(value)) {
    // As JSON.stringify does: a property whose value is undefined or a function is left out.
    if (member === undefined || typeof member === 'function') continue;
    yield* pieceLines(member, [...path, key]);
  }
}

/**
 * The pieces that turn `previous` into `next`, each the JSON text of one line: parts shared by reference
 * are skipped, a changed member is written again (whole, or as its own changed pieces when it splits),
 * a removed property is a deletion `[path]`. In a chunk written whole, only its replaced and appended
 * rows are written; another list whose length changed is written again whole.
 * @example [...changedPieceLines({ a: 1, b: [[1]] }, { a: 2, b: [[1]] })] // ['[["a"],2]', ...]
 */
export function* changedPieceLines(previous: unknown, next: unknown, path: Path = []): Generator<string> {
  if (previous === next) return;
  const bothSplit =
    isContainer(previous) &&
    isContainer(next) &&
    splits(previous) &&
    splits(next) &&
    Array.isArray(previous) === Array.isArray(next);
  if (!bothSplit) {
    if (isChunk(previous) && isChunk(next) && next.length >= previous.length) {
      // A chunk of rows with some replaced or appended: only those rows, each whole.
      for (let index = 0; index < next.length; index += 1)
        if (previous[index] !== next[index] || index >= previous.length)
          yield JSON.stringify([[...path, index], next[index] ?? null]);
      return;
    }
    yield* pieceLines(next, path);
    return;
  }
  if (Array.isArray(previous) && Array.isArray(next)) {
    if (previous.length !== next.length) {
      yield* pieceLines(next, path);
      return;
    }
    for (let index = 0; index < next.length; index += 1)
      yield* changedPieceLines(previous[index], next[index], [...path, index]);
    return;
  }
  for (const [key, member] of Object.entries(previous)) {
    const kept: unknown = Reflect.get(next, key);
    if (member !== undefined && (kept === undefined || typeof kept === 'function'))
      yield JSON.stringify([[...path, key]]);
  }
  for (const [key, member] of Object.entries(next)) {
    if (member === undefined || typeof member === 'function') continue;
    const before: unknown = Reflect.get(previous, key);
    if (before === undefined) yield* pieceLines(member, [...path, key]);
    else yield* changedPieceLines(before, member, [...path, key]);
  }
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
    const piece: unknown = JSON.parse(line);
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
