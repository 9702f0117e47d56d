/**
 * `billing-core/postgres`: many sites kept in PostgreSQL (through `pg`, an optional peer dependency),
 * each with its journal and incremental snapshots, written by one lease holder at a time with fenced
 * writes. A host embedding the engine can serve a site with `createFetchHandler` over a leased site:
 * @example
 * const store = await openPostgresStore(await connectPool('postgres://localhost/billing'));
 * await store.createSite('acme', { apiKeys: ['secret'] });
 * const got = await store.acquire('acme', 'host-1', 10_000);
 * if (got.kind === 'acquired') createFetchHandler({ state: got.site.state, commit: got.site.commit });
 * @module billing-core/postgres
 */

export { migrate, SCHEMA_VERSION } from './migrate.js';
export { connectPool, type PoolOptions, type SqlClient, type SqlPool, type SqlResult } from './sql.js';
export {
  type Acquired,
  type AcquiredSite,
  type CreateDone,
  type Created,
  type CreateRefused,
  DEFAULT_SNAPSHOT_EVERY,
  FencedError,
  type HeldSite,
  type LeasedSite,
  type MissingSite,
  openPostgresStore,
  type PostgresStore,
  type PostgresStoreOptions,
  type SiteRow,
  SUBDOMAIN,
} from './store.js';
