/**
 * A site state as lines of pieces, so that no string of the whole state is ever built: V8 cannot hold a
 * string over 512 MiB, which `JSON.stringify` of a site reaches at about 88,000 subscriptions. Each line
 * is `[path, value]`. An object, or an array of arrays or longer than a chunk, is written as an empty
 * shell followed by its members; anything else (a chunk of up to 1,000 rows, a row, a number) is written
 * whole. Reading the lines in order and setting each value at its path gives the state back, equal to
 * `JSON.parse(JSON.stringify(state))`.
 */

import { CHUNK_SIZE } from '../kernel/collection.js';

type Path = readonly (string | number)[];

const isContainer = (value: unknown): value is object => typeof value === 'object' && value !== null;

/** Whether a value is written as a shell and its members rather than whole. */
function splits(value: object): boolean {
  if (!Array.isArray(value)) return true;
  return value.length > CHUNK_SIZE || value.some((member) => Array.isArray(member));
}

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

/** Reassembles pieces, line by line, into the value they were cut from. */
export class PieceAssembler {
  private root: unknown;
  private started = false;

  /** Takes one line's `[path, value]`; throws when it does not fit what came before. */
  add(line: string): void {
    const piece: unknown = JSON.parse(line);
    if (!Array.isArray(piece) || piece.length !== 2 || !Array.isArray(piece[0]))
      throw new Error('a snapshot piece is not [path, value]');
    const [path, value] = piece as [unknown[], unknown];
    if (path.length === 0) {
      if (this.started) throw new Error('a snapshot has two roots');
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
