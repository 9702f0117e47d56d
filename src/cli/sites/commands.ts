/**
 * The commands over a database of sites: `billing-core serve --database-url URL` (many sites, see
 * multi-site-server.ts) and `billing-core sites create|list --database-url URL`.
 */

import { parseArgs } from 'node:util';
import { connectPool } from '../../adapters/postgres/sql.js';
import { openPostgresStore } from '../../adapters/postgres/store.js';
import type { SiteConfig } from '../../domain/site/config.js';
import type { CliIo } from '../io.js';
import { readSiteConfig } from '../site-config.js';
import { startMultiSiteServer } from './multi-site-server.js';
import { multiSiteOptions } from './options.js';

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Serves many sites until `until` settles (SIGINT or SIGTERM), then releases them. */
export async function multiSiteServeCommand(
  args: readonly string[],
  io: CliIo,
  until: () => { readonly signalled: Promise<unknown>; readonly dispose: () => void },
): Promise<number> {
  const options = multiSiteOptions(args);
  if (!options.ok) {
    io.stderr(`billing-core serve: ${options.error}`);
    return 2;
  }
  const stop = until();
  const warn = (message: string) => io.stderr(`billing-core serve: ${message}`);
  let running: Awaited<ReturnType<typeof startMultiSiteServer>>;
  try {
    running = await startMultiSiteServer(options.value, warn);
  } catch (error) {
    stop.dispose();
    io.stderr(`billing-core serve: ${messageOf(error)}`);
    return 1;
  }
  io.stdout(`listening on ${running.url} (sites from the database, process ${running.id})`);
  await stop.signalled;
  stop.dispose();
  try {
    await running.close();
  } catch (error) {
    io.stderr(`billing-core serve: could not release the sites on closing: ${messageOf(error)}`);
    return 1;
  }
  return 0;
}

const SITES_FLAGS = {
  'database-url': { type: 'string' },
  site: { type: 'string' },
  'api-key': { type: 'string', multiple: true },
} as const;

/** `billing-core sites create SUBDOMAIN …` and `billing-core sites list`. */
export async function sitesCommand(args: readonly string[], io: CliIo): Promise<number> {
  let parsed: ReturnType<typeof parseSitesArgs>;
  try {
    parsed = parseSitesArgs(args);
  } catch (error) {
    io.stderr(`billing-core sites: ${messageOf(error)}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [action, subdomain, ...extra] = positionals;
  const url = values['database-url'];
  if (url === undefined || url.length === 0) {
    io.stderr('billing-core sites: --database-url needs a connection string');
    return 2;
  }
  const create = action === 'create' && subdomain !== undefined && extra.length === 0;
  const list = action === 'list' && subdomain === undefined;
  if (!create && !list) {
    io.stderr('billing-core sites: write "sites create SUBDOMAIN --api-key KEY" or "sites list"');
    return 2;
  }
  let config: SiteConfig = {};
  if (create) {
    if (values.site !== undefined) {
      const read = await readSiteConfig(values.site);
      if (!read.ok) {
        io.stderr(`billing-core sites: ${read.error}`);
        return 2;
      }
      config = read.value;
    }
    const apiKeys = [...(config.apiKeys ?? []), ...(values['api-key'] ?? [])];
    if (apiKeys.length === 0) {
      io.stderr('billing-core sites: a site needs an --api-key (or apiKeys in --site)');
      return 2;
    }
    config = { ...config, apiKeys };
  }
  let pool: Awaited<ReturnType<typeof connectPool>>;
  try {
    pool = await connectPool(url, { max: 2 });
  } catch (error) {
    io.stderr(`billing-core sites: ${messageOf(error)}`);
    return 1;
  }
  try {
    const store = await openPostgresStore(pool);
    if (create && subdomain !== undefined) {
      const created = await store.createSite(subdomain, config);
      if (!created.ok) {
        io.stderr(`billing-core sites: ${created.error}`);
        return 1;
      }
      io.stdout(`created site "${subdomain}"`);
      return 0;
    }
    io.stdout('subdomain\tposition\tsnapshot\tepoch\towner\tcreated');
    for (const row of await store.listSites())
      io.stdout(
        `${row.subdomain}\t${row.position}\t${row.snapshotPosition}\t${row.epoch}\t${row.owner ?? '-'}\t${row.createdAt}`,
      );
    return 0;
  } catch (error) {
    io.stderr(`billing-core sites: ${messageOf(error)}`);
    return 1;
  } finally {
    await pool.end().catch(() => {});
  }
}

function parseSitesArgs(args: readonly string[]) {
  return parseArgs({ args: [...args], options: SITES_FLAGS, strict: true, allowPositionals: true });
}
