/**
 * Parsing a snapshot's line of pieces from its bytes. Most of a large site's snapshot is chunks of up to
 * 1,000 rows, each one line of megabytes: decoded whole, every such line is a string of its own in fresh
 * memory, and its rows are shared (`PieceSharing`) only once all of them are parsed, long out of the
 * processor's caches. A chunk's line is parsed instead a block of rows at a time, cut where one row ends
 * and the next begins, and each block is shared while it is at hand.
 *
 * Cutting never changes what is read. A cut is made before `{"id":` after `},` (the start of a row, or
 * of an object inside one), and a block counts only if `[block]` parses whole: when every block of a
 * line does, the line is `[path, [block, block, ...]]` made of whole JSON values, whose parse (JSON has
 * one) is exactly the path and the blocks' rows in order. A cut inside a row leaves a block that does
 * not parse; it is then joined to the next, and after a few such cuts the line is parsed whole, as is
 * any line of another shape.
 */

/** Where a line is cut into blocks. */
export interface BlockSizes {
  /** Lines shorter than this are parsed whole: a chunk of a large table is hundreds of kilobytes. */
  readonly fromBytes: number;
  /** The bytes of a block: its text and rows stay in the processor's caches while they are shared. */
  readonly blockBytes: number;
}

const BLOCK_SIZES: BlockSizes = { fromBytes: 128 << 10, blockBytes: 32 << 10 };
/** The path of a piece is a few names and numbers: its end is looked for this far into the line only. */
const PATH_BYTES = 1 << 10;
/** Cuts found inside a row before a line is parsed whole instead. */
const MOST_MISSED_CUTS = 3;

const PATH_END = Buffer.from('],[{');
const ROW_BREAK = Buffer.from('},{"id":');
const CLOSE = 0x5d;
const COMMA = 0x2c;
const QUOTE = 0x22;
const COLON = 0x3a;
const OPEN = 0x5b;

/** Sees a piece's rows as they are parsed, block by block (`PieceSharing.piece`). */
export type OnRows = (path: readonly unknown[], rows: unknown[]) => void;

/**
 * A line's piece when it is a chunk of rows parsed block by block (each block seen by `onRows` first);
 * undefined when the line is parsed whole instead (short, of another shape, or cut inside a row too often).
 */
export function pieceInBlocks(
  bytes: Buffer,
  onRows: OnRows,
  sizes: BlockSizes = BLOCK_SIZES,
): [unknown[], unknown[]] | undefined {
  const length = bytes.length;
  if (length < sizes.fromBytes || bytes[0] !== OPEN || bytes[length - 1] !== CLOSE) return undefined;
  if (bytes[length - 2] !== CLOSE) return undefined;
  const pathEnd = bytes.subarray(0, PATH_BYTES).indexOf(PATH_END);
  if (pathEnd < 0) return undefined;
  const path = parsed(bytes, 1, pathEnd + 1);
  if (!Array.isArray(path)) return undefined;
  /** The value's closing bracket: its rows lie between `[` and this. */
  const end = length - 2;
  const blocks: unknown[][] = [];
  let missed = 0;
  let from = pathEnd + 3;
  let cut = from;
  const second = secondKeyAt(bytes, from);
  if (second === undefined) return undefined;
  while (from < end) {
    const found = rowBreak(bytes, Math.max(cut + 1, from + sizes.blockBytes), second);
    cut = found < 0 || found >= end ? end : found + 1;
    const rows = parsedRows(bytes, from, cut);
    if (rows === undefined) {
      // Cut inside a row (or the line is damaged): this block runs on to the next cut.
      missed += 1;
      if (cut === end || missed > MOST_MISSED_CUTS) return undefined;
      continue;
    }
    onRows(path, rows);
    blocks.push(rows);
    from = cut + 1;
  }
  const rows = blocks.length === 1 ? (blocks[0] as unknown[]) : ([] as unknown[]).concat(...blocks);
  return [path, rows];
}

const ZERO = 0x30;
const NINE = 0x39;

/** The index after the digits from `at`. */
function afterDigits(bytes: Buffer, at: number): number {
  let index = at;
  while (index < bytes.length && (bytes[index] as number) >= ZERO && (bytes[index] as number) <= NINE)
    index += 1;
  return index;
}

/**
 * The bytes after a row's id, up to its second key's colon (`,"uid":`), when the row at `at` starts as
 * `{"id":`: the rows of a chunk have one shape, so this tells a row from an object inside one far more
 * often than `{"id":` alone.
 */
function secondKeyAt(bytes: Buffer, at: number): Buffer | undefined {
  const rowStart = ROW_BREAK.subarray(2);
  const start = rowStart.length;
  if (!bytes.subarray(at, at + start).equals(rowStart)) return undefined;
  const comma = afterDigits(bytes, at + start);
  if (bytes[comma] !== COMMA || bytes[comma + 1] !== QUOTE) return undefined;
  const quote = bytes.indexOf(QUOTE, comma + 2);
  if (quote < 0 || quote - comma > PATH_BYTES || bytes[quote + 1] !== COLON) return undefined;
  return bytes.subarray(comma, quote + 2);
}

/** The first `},{"id":` from `at` that a row of the chunk's shape follows (`second` after its id); -1 if none. */
function rowBreak(bytes: Buffer, at: number, second: Buffer): number {
  for (let found = bytes.indexOf(ROW_BREAK, at); found >= 0; found = bytes.indexOf(ROW_BREAK, found + 1)) {
    const keyAt = afterDigits(bytes, found + ROW_BREAK.length);
    if (bytes.subarray(keyAt, keyAt + second.length).equals(second)) return found;
  }
  return -1;
}

/** The JSON value of `bytes` from `start` to `end`; undefined when it does not parse. */
function parsed(bytes: Buffer, start: number, end: number): unknown {
  try {
    return JSON.parse(bytes.toString('utf8', start, end));
  } catch {
    return undefined;
  }
}

/** The rows of `bytes` from `start` to `end` (values separated by commas); undefined when they do not parse. */
function parsedRows(bytes: Buffer, start: number, end: number): unknown[] | undefined {
  try {
    const rows: unknown = JSON.parse(`[${bytes.toString('utf8', start, end)}]`);
    return Array.isArray(rows) ? rows : undefined;
  } catch {
    return undefined;
  }
}
