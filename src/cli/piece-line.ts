/**
 * The value of one line of a snapshot's pieces, parsed from its bytes. A chunk of rows (a table's, the
 * event log's, the books') is a line of 100 KB to a few MB, and a text that long is placed by V8 in pages
 * of its own, mapped fresh and unmapped for each line: on a large site that costs the system a second in
 * twelve. So a long line of rows is parsed in blocks of rows of about 115 KB: under 128 KB a text is placed
 * in the young generation's pages, which are used again, and from 100 KB on `JSON.parse` places the
 * objects it makes directly in the old generation, where they would end up anyway (below it they would be
 * copied by the young collections first).
 *
 * Cutting is exact or not done: a block is cut before `},{"id":`, and a line is read in blocks only when
 * its path and every block parse on their own; then the line is `[path,[rows of block 1,rows of block
 * 2,…]]`, which is what `JSON.parse` of the whole line gives. Otherwise the whole line is parsed.
 */

/** Where the rows of a chunk line start: after its path, `],[` and the first row's first key. */
const ROWS_START = Buffer.from('],[{"id":');
/** A cut between two rows, each starting with its id. */
const ROW_BOUNDARY = Buffer.from('},{"id":');
/** How far into a line its rows start: a chunk's path is short. */
const LONGEST_PATH = 256;
/** The block aimed at: as far from V8's threshold for the old generation as from that for own pages. */
const BLOCK_BYTES = 115 * 1024;
/** No block shorter: its objects would be made young and copied (V8 makes them old from 100 KiB on). */
const SHORTEST_BLOCK = 100 * 1024 + 512;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
/** A row's second key is a short name. */
const LONGEST_KEY = 64;

/** The value of `[` + the bytes from `from` to `to` + `]`, written over the separators either side. */
function parseBlock(bytes: Buffer, from: number, to: number): unknown {
  const before = bytes[from - 1];
  const after = bytes[to];
  if (before === undefined || after === undefined) return undefined;
  bytes[from - 1] = OPEN_BRACKET;
  bytes[to] = CLOSE_BRACKET;
  try {
    return JSON.parse(bytes.toString('utf8', from - 1, to + 1));
  } catch {
    return undefined;
  } finally {
    bytes[from - 1] = before;
    bytes[to] = after;
  }
}

const ZERO = 0x30;
const NINE = 0x39;

/** The end of the digits from `at` on. */
function digitsEnd(bytes: Buffer, at: number): number {
  let end = at;
  for (let byte = bytes[end]; byte !== undefined && byte >= ZERO && byte <= NINE; byte = bytes[end]) end += 1;
  return end;
}

/**
 * The next cut from `from` on where a row starts with the id and then the key the first row has: a row's
 * own list of rows with ids (an invoice's lines) rarely has the same second key. A wrong cut still only
 * costs time: its blocks do not parse on their own.
 */
function nextCut(bytes: Buffer, from: number, secondKey: Buffer): number {
  for (let cut = bytes.indexOf(ROW_BOUNDARY, from); cut >= 0; cut = bytes.indexOf(ROW_BOUNDARY, cut + 1)) {
    const key = digitsEnd(bytes, cut + ROW_BOUNDARY.length);
    if (key + secondKey.length > bytes.length) return -1;
    if (bytes.compare(secondKey, 0, secondKey.length, key, key + secondKey.length) === 0) return cut;
  }
  return -1;
}

/**
 * A long chunk line as `[path, rows]`, read block by block; undefined when it cannot be cut exactly (then
 * `JSON.parse` of the whole line is its value, or says why it is none).
 */
export function parseRowsInBlocks(bytes: Buffer, onRows?: PieceRows): unknown[] | undefined {
  const length = bytes.length;
  if (bytes[0] !== OPEN_BRACKET || bytes[length - 1] !== CLOSE_BRACKET || bytes[length - 2] !== CLOSE_BRACKET)
    return undefined;
  const rowsStart = bytes.indexOf(ROWS_START);
  if (rowsStart < 0 || rowsStart > LONGEST_PATH) return undefined;
  let path: unknown;
  try {
    path = JSON.parse(bytes.toString('utf8', 1, rowsStart + 1));
  } catch {
    return undefined;
  }
  if (!Array.isArray(path)) return undefined;
  const rowsEnd = length - 2;
  // The first row's second key, with the comma before it and the colon after (`,"uid":`).
  const keyStart = digitsEnd(bytes, rowsStart + ROWS_START.length);
  const keyEnd = bytes.indexOf('":', keyStart);
  if (bytes[keyStart] !== COMMA || keyEnd < 0 || keyEnd - keyStart > LONGEST_KEY) return undefined;
  const secondKey = bytes.subarray(keyStart, keyEnd + 2);
  const blocks = Math.max(2, Math.round(length / BLOCK_BYTES));
  const aim = length / blocks;
  const parts: unknown[][] = [];
  // The first block starts at the first row's `{`, behind the `[` that opens the rows.
  let from = rowsStart + 3;
  for (let block = 1; block < blocks; block += 1) {
    const cut = nextCut(bytes, Math.max(from + SHORTEST_BLOCK, Math.round(block * aim)), secondKey);
    if (cut < 0 || cut + 1 >= rowsEnd) break;
    const rows = parseBlock(bytes, from, cut + 1);
    if (!Array.isArray(rows)) return undefined;
    onRows?.(path, rows);
    parts.push(rows);
    from = cut + 2;
  }
  const rows = parseBlock(bytes, from, rowsEnd);
  if (!Array.isArray(rows)) return undefined;
  onRows?.(path, rows);
  parts.push(rows);
  return [path, ([] as unknown[]).concat(...parts)];
}

/**
 * Sees the rows of a piece as they are parsed (a block of a chunk's rows, or a piece's whole value), while
 * they are at hand in the processor's caches; may change them in place for equal ones.
 */
export type PieceRows = (path: readonly unknown[], rows: unknown) => void;

/**
 * The value of a line of pieces (its bytes, without the newline): `JSON.parse` of its text, which a long
 * line of rows gets block by block. `onRows` sees the value of a `[path, value]` piece, a block of rows at a
 * time (all of them again if a later block does not parse and the whole line is parsed instead). The
 * bytes are changed during the call and restored before it ends. Throws as `JSON.parse` does when the line
 * is not JSON.
 * @example parsePieceLine(Buffer.from('[["schema"],1]')) // [['schema'], 1]
 */
export function parsePieceLine(bytes: Buffer, onRows?: PieceRows): unknown {
  const inBlocks = bytes.length >= 2 * SHORTEST_BLOCK ? parseRowsInBlocks(bytes, onRows) : undefined;
  if (inBlocks !== undefined) return inBlocks;
  const piece: unknown = JSON.parse(bytes.toString('utf8'));
  if (onRows !== undefined && Array.isArray(piece) && piece.length === 2 && Array.isArray(piece[0]))
    onRows(piece[0], piece[1]);
  return piece;
}
