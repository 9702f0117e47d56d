/**
 * `billing-core serve --database-url`: many sites in PostgreSQL, served by one or more processes. Each
 * request goes to its site (routing.ts). A site is served by the process that holds its lease: a process
 * takes the lease of a site that no live process holds when a request for it arrives, loads it, and keeps
 * it until it has been idle a while (then snapshots and releases it). A request for a site another process
 * holds is forwarded to that process (each registers its address); when that process cannot be reached,
 * or the database cannot, the answer is 503 with Retry-After, and nothing was changed. A process renews
 * its leases on a heartbeat; one that dies stops renewing, and its sites are taken over once their leases
 * expire. Every write carries the lease's epoch and the store refuses a stale one, so a process that lost a
 * site without noticing cannot change it.
 */

import { randomUUID } from 'node:crypto';
import type { FetchHandler, SiteFetchHandler } from '../../adapters/fetch.js';
import { createFetchHandler } from '../../adapters/fetch.js';
import { close as closeServer, createNodeServer, listen } from '../../adapters/node-http.js';
import { connectPool, type SqlPool } from '../../adapters/postgres/sql.js';
import { type LeasedSite, openPostgresStore, type PostgresStore } from '../../adapters/postgres/store.js';
import type { MultiSiteOptions } from './options.js';
import { routeOf, SITE_PREFIX } from './routing.js';

/** Marks a request one process forwarded to another: it is not forwarded again. */
export const FORWARDED_HEADER = 'x-billing-core-forwarded';

interface Hosted {
  readonly leased: LeasedSite;
  readonly app: SiteFetchHandler;
  /** When the lease was taken: a renewal that started before then does not know of it yet. */
  readonly openedAt: number;
  inflight: number;
  lastUsed: number;
}

type Located =
  | { readonly kind: 'local'; readonly hosted: Hosted }
  | { readonly kind: 'remote'; readonly address: string | null; readonly remainingMs: number }
  | { readonly kind: 'missing' };

const json = (status: number, body: unknown, headers: Record<string, string> = {}): Response =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  });

const retryable = (message: string, afterMs = 1000): Response =>
  json(503, { errors: [message] }, { 'retry-after': String(Math.max(1, Math.ceil(afterMs / 1000))) });

const HOP_BY_HOP = ['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive'];

/** A running multi-site server. */
export interface RunningMultiSiteServer {
  readonly url: string;
  readonly port: number;
  /** This process's id, the owner of the leases it holds. */
  readonly id: string;
  readonly store: PostgresStore;
  /** The subdomains of the sites this process serves now. */
  readonly hosted: () => readonly string[];
  /** Stops serving, snapshots and releases every site, and forgets this process. */
  readonly close: () => Promise<void>;
}

/** Starts serving; resolves once listening and registered. */
export async function startMultiSiteServer(
  options: MultiSiteOptions,
  warn: (message: string) => void = () => {},
): Promise<RunningMultiSiteServer> {
  const pool: SqlPool = await connectPool(options.databaseUrl, { max: 10 }, (error) =>
    warn(`database connection lost: ${error.message}`),
  );
  let store: PostgresStore;
  try {
    store = await openPostgresStore(pool, { snapshotEvery: options.snapshotEvery, warn });
  } catch (error) {
    await pool.end().catch(() => {});
    throw error;
  }
  const id = randomUUID();
  const sites = new Map<string, Hosted>();
  const opening = new Map<string, Promise<Located>>();
  const releasing = new Map<string, Promise<void>>();

  /** When the last renewal that succeeded started: the leases held then last until this plus a lease. */
  let lastRenewed = Date.now();

  const evict = (subdomain: string, hosted: Hosted) => {
    if (sites.get(subdomain) === hosted) sites.delete(subdomain);
  };

  const release = (subdomain: string, hosted: Hosted) => {
    evict(subdomain, hosted);
    const done = hosted.leased
      .release()
      .catch((error: unknown) =>
        warn(`releasing site "${subdomain}": ${error instanceof Error ? error.message : error}`),
      )
      .finally(() => releasing.delete(subdomain));
    releasing.set(subdomain, done);
    return done;
  };

  const open = async (subdomain: string): Promise<Located> => {
    await releasing.get(subdomain);
    const got = await store.acquire(subdomain, id, options.leaseMs);
    if (got.kind === 'missing') return got;
    if (got.kind === 'held') return { kind: 'remote', address: got.address, remainingMs: got.remainingMs };
    const leased = got.site;
    const app = createFetchHandler({
      state: leased.state,
      commit: leased.commit,
      onFault: (fault, request) =>
        warn(
          `internal error ${fault.id} on site "${subdomain}" ${request.method} ${request.path}: ${fault.message}`,
        ),
    });
    const hosted: Hosted = { leased, app, openedAt: Date.now(), inflight: 0, lastUsed: Date.now() };
    sites.set(subdomain, hosted);
    return { kind: 'local', hosted };
  };

  const locate = (subdomain: string): Promise<Located> => {
    const hosted = sites.get(subdomain);
    // A lease not renewed in time may be another process's by now (this one was paused, say): even a
    // read is not answered from it.
    if (hosted !== undefined && Date.now() - Math.max(lastRenewed, hosted.openedAt) > options.leaseMs)
      evict(subdomain, hosted);
    else if (hosted !== undefined) return Promise.resolve({ kind: 'local', hosted });
    let pending = opening.get(subdomain);
    if (pending === undefined) {
      pending = open(subdomain).finally(() => opening.delete(subdomain));
      opening.set(subdomain, pending);
    }
    return pending;
  };

  const serveLocally = async (
    subdomain: string,
    hosted: Hosted,
    request: Request,
    path: string,
    body: ArrayBuffer | undefined,
  ): Promise<Response> => {
    hosted.inflight += 1;
    hosted.lastUsed = Date.now();
    try {
      const inner = new Request(new URL(path, request.url), {
        method: request.method,
        headers: request.headers,
        ...(body === undefined ? {} : { body }),
      });
      const response = await hosted.app(inner);
      const failure = hosted.leased.failure();
      if (failure === undefined) return response;
      // The site in memory holds a change that was not saved: it is dropped and loaded again next time.
      evict(subdomain, hosted);
      if (response.status !== 503) return response;
      return retryable(
        `Site "${subdomain}": the change could not be saved (${failure.message}); nothing was changed. Retry.`,
      );
    } finally {
      hosted.inflight -= 1;
      hosted.lastUsed = Date.now();
    }
  };

  const forward = async (
    subdomain: string,
    located: Extract<Located, { kind: 'remote' }>,
    request: Request,
    path: string,
    body: ArrayBuffer | undefined,
  ): Promise<Response> => {
    const wait = `Site "${subdomain}" is being served by another process that cannot be reached now; retry.`;
    if (request.headers.get(FORWARDED_HEADER) !== null || located.address === null)
      return retryable(wait, located.remainingMs);
    const headers = new Headers(request.headers);
    for (const name of HOP_BY_HOP) headers.delete(name);
    headers.set(FORWARDED_HEADER, '1');
    try {
      const answer = await fetch(`${located.address}${SITE_PREFIX}${subdomain}${path}`, {
        method: request.method,
        headers,
        redirect: 'manual',
        signal: AbortSignal.timeout(30_000),
        ...(body === undefined ? {} : { body }),
      });
      const copied = new Headers(answer.headers);
      for (const name of [...HOP_BY_HOP, 'content-encoding']) copied.delete(name);
      const bytes = await answer.arrayBuffer();
      return new Response(answer.status === 204 ? null : bytes, { status: answer.status, headers: copied });
    } catch {
      return retryable(wait, located.remainingMs);
    }
  };

  const handler: FetchHandler = async (request) => {
    const url = new URL(request.url);
    const routed = routeOf(`${url.pathname}${url.search}`, request.headers.get('host'));
    if (routed === undefined)
      return json(404, {
        errors: [
          `No site named: send Host: {subdomain}.… or prefix the path with ${SITE_PREFIX}{subdomain}.`,
        ],
      });
    const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
    const body = hasBody ? await request.arrayBuffer() : undefined;
    let located: Located;
    try {
      located = await locate(routed.subdomain);
    } catch (error) {
      return retryable(
        `The database cannot be reached (${error instanceof Error ? error.message : error}); nothing was changed. Retry.`,
      );
    }
    if (located.kind === 'missing') return json(404, { errors: [`No site "${routed.subdomain}".`] });
    if (located.kind === 'local')
      return serveLocally(routed.subdomain, located.hosted, request, routed.path, body);
    return forward(routed.subdomain, located, request, routed.path, body);
  };

  const server = createNodeServer(handler);
  let port: number;
  try {
    port = await listen(server, options.port, options.host);
  } catch (error) {
    await pool.end().catch(() => {});
    throw new Error(`cannot listen: ${error instanceof Error ? error.message : error}`);
  }
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  const url = `http://${host}:${port}`;
  await store.registerProcess(id, options.advertise ?? url);

  const heartbeat = async () => {
    const started = Date.now();
    try {
      const held = await store.renew(id, options.leaseMs);
      lastRenewed = started;
      for (const [subdomain, hosted] of sites)
        if (hosted.openedAt < started && held.get(subdomain) !== hosted.leased.epoch)
          evict(subdomain, hosted);
    } catch (error) {
      // Unable to renew for a whole lease, this process may have lost every site: it serves none of them.
      if (Date.now() - lastRenewed > options.leaseMs)
        for (const [subdomain, hosted] of sites) evict(subdomain, hosted);
      warn(`cannot renew leases: ${error instanceof Error ? error.message : error}`);
    }
    const now = Date.now();
    for (const [subdomain, hosted] of sites)
      if (hosted.inflight === 0 && now - hosted.lastUsed >= options.idleMs) void release(subdomain, hosted);
  };
  let beating = false;
  const timer = setInterval(
    () => {
      if (beating) return;
      beating = true;
      void heartbeat().finally(() => {
        beating = false;
      });
    },
    Math.max(100, Math.floor(options.leaseMs / 3)),
  );

  const close = async () => {
    clearInterval(timer);
    await closeServer(server);
    await Promise.all([...sites].map(([subdomain, hosted]) => release(subdomain, hosted)));
    await Promise.all([...releasing.values()]);
    await store.unregisterProcess(id).catch(() => {});
    await pool.end();
  };
  return { url, port, id, store, hosted: () => [...sites.keys()], close };
}
