/**
 * The tables of the PostgreSQL store, created on first use. The DDL runs in one transaction under an
 * advisory lock, so that processes starting together neither race nor see half a schema.
 */

import { inTransaction, type SqlPool } from './sql.js';

/** The advisory lock key the migration holds (any constant the host does not use itself). */
const MIGRATION_LOCK = 7_042_025_001;

/** The schema version this code writes; a database at a newer version is refused. */
export const SCHEMA_VERSION = 1;

const SCHEMA = [
  'CREATE TABLE IF NOT EXISTS billing_core_schema (version integer NOT NULL)',
  // One row per site: its lease (owner, epoch, expiry) and how far its journal and snapshot go.
  `CREATE TABLE IF NOT EXISTS billing_core_sites (
    subdomain text COLLATE "C" PRIMARY KEY,
    created_at timestamptz NOT NULL DEFAULT now(),
    epoch bigint NOT NULL DEFAULT 0,
    owner text,
    lease_until timestamptz,
    next_seq bigint NOT NULL DEFAULT 0,
    snapshot_seq bigint NOT NULL DEFAULT 0,
    next_piece bigint NOT NULL DEFAULT 0
  )`,
  // The primary key makes a duplicate record impossible; appends take consecutive numbers from next_seq.
  `CREATE TABLE IF NOT EXISTS billing_core_journal (
    subdomain text COLLATE "C" NOT NULL,
    seq bigint NOT NULL,
    entry jsonb NOT NULL,
    PRIMARY KEY (subdomain, seq)
  )`,
  // The snapshot as pieces; a path's descendants sort right after it (byte order), ord keeps the order written.
  `CREATE TABLE IF NOT EXISTS billing_core_pieces (
    subdomain text COLLATE "C" NOT NULL,
    path text COLLATE "C" NOT NULL,
    ord bigint NOT NULL,
    line text NOT NULL,
    PRIMARY KEY (subdomain, path)
  )`,
  'CREATE INDEX IF NOT EXISTS billing_core_pieces_order ON billing_core_pieces (subdomain, ord)',
  `CREATE TABLE IF NOT EXISTS billing_core_processes (
    id text PRIMARY KEY,
    address text NOT NULL,
    seen_at timestamptz NOT NULL DEFAULT now()
  )`,
];

/** Creates the tables if they are not there; refuses a database written by a newer version. */
export async function migrate(pool: SqlPool): Promise<void> {
  await inTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    for (const statement of SCHEMA) await client.query(statement);
    const found = await client.query<{ version: number }>('SELECT version FROM billing_core_schema');
    const version = found.rows[0]?.version;
    if (version === undefined)
      await client.query('INSERT INTO billing_core_schema (version) VALUES ($1)', [SCHEMA_VERSION]);
    else if (version > SCHEMA_VERSION)
      throw new Error(
        `the database holds billing-core schema version ${version}; this version knows up to ${SCHEMA_VERSION}`,
      );
  });
}
