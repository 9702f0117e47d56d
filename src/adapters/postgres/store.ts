/**
 * Many sites in PostgreSQL. Each site is a row in `billing_core_sites`, its journal rows keyed by (site,
 * record number) and its snapshot as pieces (pieces-table.ts). A site is written by one holder at a time:
 * `acquire` takes its lease, which bumps the site's epoch, and every write the holder then makes (journal
 * appends, snapshots) is conditional on that epoch, in the same statement or transaction: once another
 * holder has taken the site over, a write made under the old lease changes nothing and is refused with a
 * `FencedError` (the fencing-token rule). A lease expires unless renewed; the epoch, not the expiry,
 * decides whether a write lands.
 */

import { randomBytes } from 'node:crypto';
import type { SiteConfig } from '../../domain/site/config.js';
import { changedPieceLines, pieceLines } from '../../engine/persistence/pieces.js';
import { createSite, fillLaterTables, type SiteState } from '../../engine/state.js';
import type { AppliedRequest } from '../fetch.js';
import { entryOf, replayEntry, type StoredEntry } from './journal-entries.js';
import { migrate } from './migrate.js';
import { readPieces, writePieces } from './pieces-table.js';
import { inTransaction, type SqlPool } from './sql.js';

/** A write refused because the site's lease was taken over since it was acquired. */
export class FencedError extends Error {
  constructor(subdomain: string, epoch: number) {
    super(`the lease on site "${subdomain}" (epoch ${epoch}) was taken over; the write was refused`);
    this.name = 'FencedError';
  }
}

/** Subdomains as DNS labels: lower-case letters, digits and inner hyphens. */
export const SUBDOMAIN = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** Records between snapshots when not given. */
export const DEFAULT_SNAPSHOT_EVERY = 1000;

/** A site as listed. */
export interface SiteRow {
  /** The site's subdomain, its key. */
  readonly subdomain: string;
  /** When it was created (ISO 8601). */
  readonly createdAt: string;
  /** How many times its lease was taken. */
  readonly epoch: number;
  /** The process holding the lease, if it has not expired. */
  readonly owner: string | null;
  /** Journal records written so far. */
  readonly position: number;
  /** The journal position the snapshot covers. */
  readonly snapshotPosition: number;
}

/** A site under this holder's lease: its state as loaded, and the writes made under the lease. */
export interface LeasedSite {
  /** The site's subdomain. */
  readonly subdomain: string;
  /** The lease's epoch, which every write of this holder carries. */
  readonly epoch: number;
  /** The state as loaded: snapshot plus journal. */
  readonly state: SiteState;
  /**
   * Journals an applied request if it changed the state; resolves once it (and all before it) is
   * committed. Rejects when it could not be (a `FencedError` after a takeover, or the database's
   * error), and so does every later call: the state in memory then holds a change that was never saved.
   */
  readonly commit: (applied: AppliedRequest) => Promise<void>;
  /** Why writing stopped, if it did. */
  readonly failure: () => Error | undefined;
  /**
   * Waits for pending writes, writes a final snapshot, then gives the lease up (keeping the epoch, so a
   * stale write stays refused).
   */
  readonly release: () => Promise<void>;
}

/** The lease was taken: the site is this holder's to write. */
export interface AcquiredSite {
  /** Taken. */
  readonly kind: 'acquired';
  /** The site, loaded. */
  readonly site: LeasedSite;
}

/** Another holder has the lease, and it has not expired. */
export interface HeldSite {
  /** Held by another. */
  readonly kind: 'held';
  /** The holder. */
  readonly owner: string;
  /** Where the holder answers (`registerProcess`), if it said. */
  readonly address: string | null;
  /** How long the lease has left, unless renewed. */
  readonly remainingMs: number;
}

/** No site has that subdomain. */
export interface MissingSite {
  /** No such site. */
  readonly kind: 'missing';
}

/** What `acquire` finds. */
export type Acquired = AcquiredSite | HeldSite | MissingSite;

/** Whether a site was created, or why not. */
export type Created = CreateDone | CreateRefused;

/** The site was created. */
export interface CreateDone {
  /** Created. */
  readonly ok: true;
}

/** Why a site was not created. */
export interface CreateRefused {
  /** Not created. */
  readonly ok: false;
  /** Why: the subdomain is taken or not a DNS label, or the configuration is invalid. */
  readonly error: string;
}

/** How a store writes. */
export interface PostgresStoreOptions {
  /** Journal records between incremental snapshots (which trim the journal). Default 1,000. */
  readonly snapshotEvery?: number;
  /** Where failed background snapshots are reported (the journal still holds everything). */
  readonly warn?: (message: string) => void;
}

/** The store: sites, their leases, and the holders' addresses. */
export interface PostgresStore {
  /** The pool it queries through. */
  readonly pool: SqlPool;
  /** Creates a site (its snapshot at position 0) under a new subdomain. */
  readonly createSite: (subdomain: string, config: SiteConfig) => Promise<Created>;
  /** Every site, by subdomain. */
  readonly listSites: () => Promise<readonly SiteRow[]>;
  /**
   * Takes a site's lease for `owner` if it is free, expired or the owner's already (its earlier session is
   * then fenced off, like any other), then loads the site.
   */
  readonly acquire: (subdomain: string, owner: string, leaseMs: number) => Promise<Acquired>;
  /** Extends every lease `owner` still holds; resolves with their subdomains and epochs. */
  readonly renew: (owner: string, leaseMs: number) => Promise<ReadonlyMap<string, number>>;
  /** Records where a holder answers, so that others can forward requests to it. */
  readonly registerProcess: (owner: string, address: string) => Promise<void>;
  /** Forgets a holder (when it stops) and frees its leases. */
  readonly unregisterProcess: (owner: string) => Promise<void>;
}

const randomSecret = () => randomBytes(32).toString('hex');

const APPEND = `WITH fence AS (
    UPDATE billing_core_sites SET next_seq = $3 + cardinality($4::jsonb[])
    WHERE subdomain = $1 AND epoch = $2 AND next_seq = $3 RETURNING 1
  )
  INSERT INTO billing_core_journal (subdomain, seq, entry)
  SELECT $1, $3 + t.i - 1, t.entry FROM unnest($4::jsonb[]) WITH ORDINALITY AS t(entry, i)
  WHERE EXISTS (SELECT 1 FROM fence)`;

interface Pending {
  readonly entry: StoredEntry;
  readonly state: SiteState;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

interface Loaded {
  readonly state: SiteState;
  readonly position: number;
  readonly snapshotState: SiteState;
  readonly snapshotPosition: number;
  readonly nextPiece: number;
}

async function load(pool: SqlPool, subdomain: string): Promise<Loaded> {
  const row = await pool.query<{ next_seq: string; snapshot_seq: string; next_piece: string }>(
    'SELECT next_seq, snapshot_seq, next_piece FROM billing_core_sites WHERE subdomain = $1',
    [subdomain],
  );
  const found = row.rows[0];
  if (found === undefined) throw new Error(`site "${subdomain}" is gone`);
  const snapshotPosition = Number(found.snapshot_seq);
  const snapshotState = (await readPieces(pool, subdomain)) as SiteState;
  const journal = await pool.query<{ seq: string; entry: StoredEntry }>(
    'SELECT seq, entry FROM billing_core_journal WHERE subdomain = $1 AND seq >= $2 ORDER BY seq',
    [subdomain, snapshotPosition],
  );
  // Saved by an earlier version: the first snapshot after this writes what the upgrade changed.
  let state = fillLaterTables(snapshotState);
  let position = snapshotPosition;
  for (const { seq, entry } of journal.rows) {
    if (Number(seq) !== position)
      throw new Error(`site "${subdomain}": journal record ${seq} where record ${position} belongs`);
    state = replayEntry(state, entry);
    position += 1;
  }
  if (position !== Number(found.next_seq))
    throw new Error(`site "${subdomain}": the journal ends at ${position}, the site says ${found.next_seq}`);
  return { state, position, snapshotState, snapshotPosition, nextPiece: Number(found.next_piece) };
}

function leasedSite(
  pool: SqlPool,
  subdomain: string,
  owner: string,
  epoch: number,
  loaded: Loaded,
  options: PostgresStoreOptions,
): LeasedSite {
  const every = Math.max(1, options.snapshotEvery ?? DEFAULT_SNAPSHOT_EVERY);
  let next = loaded.position;
  let snapshotState = loaded.snapshotState;
  let snapshotPosition = loaded.snapshotPosition;
  let nextPiece = loaded.nextPiece;
  let pending: Pending[] = [];
  let flushing: Promise<void> | undefined;
  let snapshotting: Promise<void> | undefined;
  let failed: Error | undefined;
  let released = false;
  /** The state after the last committed record. */
  let latest: SiteState | undefined;

  const snapshot = async (state: SiteState, position: number) => {
    const ord = await inTransaction(pool, async (client) => {
      const fence = await client.query(
        'UPDATE billing_core_sites SET snapshot_seq = $3 WHERE subdomain = $1 AND epoch = $2 RETURNING 1',
        [subdomain, epoch, position],
      );
      if (fence.rowCount !== 1) throw new FencedError(subdomain, epoch);
      const written = await writePieces(
        client,
        subdomain,
        changedPieceLines(snapshotState, state),
        nextPiece,
      );
      await client.query('UPDATE billing_core_sites SET next_piece = $2 WHERE subdomain = $1', [
        subdomain,
        written,
      ]);
      await client.query('DELETE FROM billing_core_journal WHERE subdomain = $1 AND seq < $2', [
        subdomain,
        position,
      ]);
      return written;
    });
    nextPiece = ord;
    snapshotState = state;
    snapshotPosition = position;
  };

  const flush = async () => {
    while (pending.length > 0 && failed === undefined) {
      const batch = pending;
      pending = [];
      try {
        const appended = await pool.query(APPEND, [
          subdomain,
          epoch,
          next,
          batch.map((each) => JSON.stringify(each.entry)),
        ]);
        if (appended.rowCount !== batch.length) throw new FencedError(subdomain, epoch);
      } catch (error) {
        failed = error instanceof Error ? error : new Error(String(error));
        for (const each of [...batch, ...pending]) each.reject(failed);
        pending = [];
        break;
      }
      next += batch.length;
      for (const each of batch) each.resolve();
      const last = batch.at(-1);
      if (last !== undefined) latest = last.state;
      if (last !== undefined && snapshotting === undefined && next - snapshotPosition >= every) {
        snapshotting = snapshot(last.state, next)
          .catch((error: unknown) =>
            options.warn?.(
              `snapshot of site "${subdomain}" failed (the journal still holds everything): ${error instanceof Error ? error.message : error}`,
            ),
          )
          .finally(() => {
            snapshotting = undefined;
          });
      }
    }
    flushing = undefined;
  };

  const settled = (): Promise<void> => {
    if (failed !== undefined) return Promise.reject(failed);
    return flushing === undefined
      ? Promise.resolve()
      : flushing.then(() => (failed === undefined ? undefined : Promise.reject(failed)));
  };

  return {
    subdomain,
    epoch,
    state: loaded.state,
    failure: () => failed,
    commit: (applied) => {
      if (released && failed === undefined) failed = new Error(`site "${subdomain}" was released`);
      if (failed !== undefined) return Promise.reject(failed);
      // A request that changed nothing still waits for what came before: it may have read it.
      if (!applied.changed) return settled();
      const done = new Promise<void>((resolve, reject) => {
        pending.push({ entry: entryOf(applied), state: applied.state, resolve, reject });
      });
      flushing ??= Promise.resolve().then(flush);
      return done;
    },
    release: async () => {
      released = true;
      await flushing;
      await snapshotting;
      // A final snapshot, so that the next holder replays nothing; incremental, so it costs little.
      const last = latest;
      if (failed === undefined && last !== undefined && next > snapshotPosition) await snapshot(last, next);
      await pool.query(
        'UPDATE billing_core_sites SET owner = NULL, lease_until = NULL WHERE subdomain = $1 AND owner = $2 AND epoch = $3',
        [subdomain, owner, epoch],
      );
    },
  };
}

/**
 * Opens the store on a pool (creating its tables on first use).
 * @example const store = await openPostgresStore(await connectPool(process.env.DATABASE_URL ?? ''));
 */
export async function openPostgresStore(
  pool: SqlPool,
  options: PostgresStoreOptions = {},
): Promise<PostgresStore> {
  await migrate(pool);
  return {
    pool,
    createSite: async (subdomain, config) => {
      if (!SUBDOMAIN.test(subdomain))
        return {
          ok: false,
          error: `"${subdomain}" is not a subdomain: lower-case letters, digits and inner hyphens, up to 63`,
        };
      let state: SiteState;
      try {
        state = createSite({ ...config, subdomain, portalSecret: config.portalSecret ?? randomSecret() });
      } catch (error) {
        return { ok: false, error: error instanceof Error ? error.message : String(error) };
      }
      return inTransaction(pool, async (client) => {
        const inserted = await client.query(
          'INSERT INTO billing_core_sites (subdomain) VALUES ($1) ON CONFLICT DO NOTHING RETURNING 1',
          [subdomain],
        );
        if (inserted.rowCount !== 1) return { ok: false, error: `site "${subdomain}" exists already` };
        const ord = await writePieces(client, subdomain, pieceLines(state), 0);
        await client.query('UPDATE billing_core_sites SET next_piece = $2 WHERE subdomain = $1', [
          subdomain,
          ord,
        ]);
        return { ok: true };
      });
    },
    listSites: async () => {
      const found = await pool.query<{
        subdomain: string;
        created_at: Date;
        epoch: string;
        owner: string | null;
        next_seq: string;
        snapshot_seq: string;
      }>(
        `SELECT subdomain, created_at, epoch, CASE WHEN lease_until > clock_timestamp() THEN owner END AS owner,
           next_seq, snapshot_seq FROM billing_core_sites ORDER BY subdomain`,
      );
      return found.rows.map((row) => ({
        subdomain: row.subdomain,
        createdAt: row.created_at.toISOString(),
        epoch: Number(row.epoch),
        owner: row.owner,
        position: Number(row.next_seq),
        snapshotPosition: Number(row.snapshot_seq),
      }));
    },
    acquire: async (subdomain, owner, leaseMs) => {
      const taken = await pool.query<{ epoch: string }>(
        `UPDATE billing_core_sites
         SET owner = $2, epoch = epoch + 1, lease_until = clock_timestamp() + $3 * interval '1 millisecond'
         WHERE subdomain = $1
           AND (owner IS NULL OR owner = $2 OR lease_until IS NULL OR lease_until < clock_timestamp())
         RETURNING epoch`,
        [subdomain, owner, leaseMs],
      );
      const epoch = taken.rows[0]?.epoch;
      if (epoch !== undefined) {
        try {
          const loaded = await load(pool, subdomain);
          return {
            kind: 'acquired',
            site: leasedSite(pool, subdomain, owner, Number(epoch), loaded, options),
          };
        } catch (error) {
          await pool
            .query(
              'UPDATE billing_core_sites SET owner = NULL, lease_until = NULL WHERE subdomain = $1 AND epoch = $2',
              [subdomain, epoch],
            )
            .catch(() => {});
          throw error;
        }
      }
      const holder = await pool.query<{ owner: string | null; address: string | null; remaining: number }>(
        `SELECT s.owner, p.address,
           GREATEST(0, EXTRACT(EPOCH FROM (s.lease_until - clock_timestamp())) * 1000)::float8 AS remaining
         FROM billing_core_sites s LEFT JOIN billing_core_processes p ON p.id = s.owner
         WHERE s.subdomain = $1`,
        [subdomain],
      );
      const row = holder.rows[0];
      if (row === undefined) return { kind: 'missing' };
      return { kind: 'held', owner: row.owner ?? '', address: row.address, remainingMs: row.remaining ?? 0 };
    },
    renew: async (owner, leaseMs) => {
      const renewed = await pool.query<{ subdomain: string; epoch: string }>(
        `UPDATE billing_core_sites SET lease_until = clock_timestamp() + $2 * interval '1 millisecond'
         WHERE owner = $1 RETURNING subdomain, epoch`,
        [owner, leaseMs],
      );
      await pool.query('UPDATE billing_core_processes SET seen_at = clock_timestamp() WHERE id = $1', [
        owner,
      ]);
      return new Map(renewed.rows.map((row) => [row.subdomain, Number(row.epoch)]));
    },
    registerProcess: async (owner, address) => {
      await pool.query(
        `INSERT INTO billing_core_processes (id, address) VALUES ($1, $2)
         ON CONFLICT (id) DO UPDATE SET address = excluded.address, seen_at = clock_timestamp()`,
        [owner, address],
      );
    },
    unregisterProcess: async (owner) => {
      await pool.query('UPDATE billing_core_sites SET owner = NULL, lease_until = NULL WHERE owner = $1', [
        owner,
      ]);
      await pool.query('DELETE FROM billing_core_processes WHERE id = $1', [owner]);
    },
  };
}
