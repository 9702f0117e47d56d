/**
 * A real PostgreSQL server for a test file: started in `beforeAll` from the system's packages (CI
 * installs them), stopped in `afterAll`. A test that cannot start one fails: it never skips.
 */

import { afterAll, beforeAll } from 'vitest';
import { connectPool, type SqlPool } from '../../src/adapters/postgres/sql.js';
import { type LocalPostgres, startLocalPostgres } from '../../tools/postgres/local-server.js';

/** The server of this test file, once `beforeAll` has run. */
export function usePostgres(): { readonly server: () => LocalPostgres; readonly pool: () => SqlPool } {
  let server: LocalPostgres | undefined;
  let pool: SqlPool | undefined;
  beforeAll(async () => {
    server = await startLocalPostgres({ fast: true });
    pool = await connectPool(server.url, { max: 8 });
  });
  afterAll(async () => {
    await pool?.end();
    server?.stop();
  });
  return {
    server: () => {
      if (server === undefined) throw new Error('PostgreSQL did not start');
      return server;
    },
    pool: () => {
      if (pool === undefined) throw new Error('PostgreSQL did not start');
      return pool;
    },
  };
}
