/**
 * A site's snapshot as rows of pieces (see `pieceLines`), one per path, so that a new snapshot writes
 * only the pieces that changed since the last one. A piece written at a path replaces everything under
 * it: its descendants (whose paths, as JSON text, start with the path's text less its closing bracket and
 * a comma) are deleted first. Each row keeps the order it was first written in, so that reading the rows
 * in that order gives parents before children, and object keys in the order a `PieceAssembler` fed the
 * same pieces would have them.
 */

import { PieceAssembler } from '../../engine/persistence/pieces.js';
import { PieceSharing } from '../../engine/persistence/share.js';
import type { SqlClient, SqlPool } from './sql.js';

const BATCH = 1000;

/** The byte range of the paths under a path: [low, high) in the "C" collation. */
function descendants(pathText: string): readonly [string, string] {
  // Every path is a JSON array: under the root lies every path, the root's own row included.
  if (pathText === '[]') return ['[', '\\'];
  const stem = pathText.slice(0, -1);
  return [`${stem},`, `${stem}-`];
}

interface Batch {
  readonly low: string[];
  readonly high: string[];
  readonly deleted: string[];
  readonly paths: string[];
  readonly lines: string[];
  readonly ords: string[];
}

const emptyBatch = (): Batch => ({ low: [], high: [], deleted: [], paths: [], lines: [], ords: [] });

async function writeBatch(client: SqlClient, subdomain: string, batch: Batch): Promise<void> {
  if (batch.low.length > 0)
    await client.query(
      `DELETE FROM billing_core_pieces p USING unnest($2::text[], $3::text[]) AS r(low, high)
       WHERE p.subdomain = $1 AND p.path >= r.low AND p.path < r.high`,
      [subdomain, batch.low, batch.high],
    );
  if (batch.deleted.length > 0)
    await client.query('DELETE FROM billing_core_pieces WHERE subdomain = $1 AND path = ANY($2::text[])', [
      subdomain,
      batch.deleted,
    ]);
  if (batch.paths.length > 0)
    await client.query(
      `INSERT INTO billing_core_pieces (subdomain, path, line, ord)
       SELECT $1, t.path, t.line, t.ord FROM unnest($2::text[], $3::text[], $4::bigint[]) AS t(path, line, ord)
       ON CONFLICT (subdomain, path) DO UPDATE SET line = excluded.line`,
      [subdomain, batch.paths, batch.lines, batch.ords],
    );
}

/**
 * Writes piece lines (a whole state's, or the changed ones of a newer version) for a site, in a
 * transaction the caller holds; `nextOrd` numbers new rows. Resolves with the next number to use.
 */
export async function writePieces(
  client: SqlClient,
  subdomain: string,
  lines: Iterable<string>,
  nextOrd: number,
): Promise<number> {
  let ord = nextOrd;
  let batch = emptyBatch();
  for (const line of lines) {
    const piece = JSON.parse(line) as unknown[];
    const pathText = JSON.stringify(piece[0]);
    const [low, high] = descendants(pathText);
    batch.low.push(low);
    batch.high.push(high);
    if (piece.length === 1) batch.deleted.push(pathText);
    else {
      batch.paths.push(pathText);
      batch.lines.push(line);
      batch.ords.push(String(ord));
      ord += 1;
    }
    if (batch.low.length >= BATCH) {
      await writeBatch(client, subdomain, batch);
      batch = emptyBatch();
    }
  }
  await writeBatch(client, subdomain, batch);
  return ord;
}

/** Reads a site's pieces back into the value they were cut from, a page of rows at a time. */
export async function readPieces(pool: SqlPool | SqlClient, subdomain: string): Promise<unknown> {
  // Each piece's rows get the running engine's sharing as they are read.
  const sharing = new PieceSharing();
  const assembler = new PieceAssembler((at, value) => sharing.piece(at, value));
  let after = -1;
  for (;;) {
    const page = await pool.query<{ ord: string; line: string }>(
      'SELECT ord, line FROM billing_core_pieces WHERE subdomain = $1 AND ord > $2 ORDER BY ord LIMIT $3',
      [subdomain, after, BATCH * 5],
    );
    for (const row of page.rows) assembler.add(row.line);
    const last = page.rows.at(-1);
    if (last === undefined || page.rows.length < BATCH * 5) break;
    after = Number(last.ord);
  }
  return assembler.value();
}
