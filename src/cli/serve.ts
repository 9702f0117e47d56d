/**
 * `billing-core serve`: the REST API over HTTP. The site lives in memory; requests are applied one at a
 * time in arrival order. With `--now` the clock is frozen and `POST /_test/clock.json` moves it forward.
 */

import { parseArgs } from 'node:util';
import type { ApiHandler } from '../adapters/node-http.js';
import { close as closeServer, createHttpServer, listen } from '../adapters/node-http.js';
import { isAuthorized } from '../api/auth.js';
import { handle } from '../api/handle.js';
import type { ApiRequest, ApiResponse } from '../api/types.js';
import type { SiteConfig } from '../domain/site/config.js';
import { createSite, type SiteState } from '../engine/state.js';
import { type Clock, frozenClock, parseInstant, realClock } from './clock.js';
import type { CliIo } from './io.js';
import { readSiteConfig } from './site-config.js';

export const CLOCK_PATH = '/_test/clock.json';

const fail = (status: number, message: string): ApiResponse => ({ status, body: { errors: [message] } });

function headerOf(request: ApiRequest, name: string): string | undefined {
  for (const [key, value] of Object.entries(request.headers ?? {}))
    if (key.toLowerCase() === name) return value;
  return undefined;
}

function parseJson(body: unknown): { ok: true; value: unknown } | { ok: false } {
  if (typeof body !== 'string') return { ok: true, value: body };
  try {
    return { ok: true, value: JSON.parse(body) as unknown };
  } catch {
    return { ok: false };
  }
}

/** The in-memory site behind the server: a handler, and a view of its current state. */
export interface App {
  readonly handler: ApiHandler;
  readonly state: () => SiteState;
}

/** Builds the server's handler over a fresh site and a clock. */
export function createApp(site: SiteConfig, clock: Clock): App {
  let state = createSite(site);

  const moveClock = (request: ApiRequest): ApiResponse => {
    const keys = state.settings.apiKeys;
    if (keys !== null && !isAuthorized(headerOf(request, 'authorization'), keys)) {
      return {
        status: 401,
        body: { errors: ['HTTP Basic: Access denied.'] },
        headers: { 'WWW-Authenticate': 'Basic realm="billing-core"' },
      };
    }
    if (request.method.toUpperCase() !== 'POST') return fail(405, 'Method not allowed.');
    const json = parseJson(request.body);
    if (!json.ok) return fail(400, 'The request body is not valid JSON.');
    const sent =
      typeof json.value === 'object' && json.value !== null ? Reflect.get(json.value, 'now') : undefined;
    const instant = parseInstant(sent);
    if (instant === undefined) return fail(422, 'now: must be an ISO 8601 timestamp.');
    const moved = clock.moveTo(instant);
    if (!moved.ok) return fail(422, moved.error);
    // What falls due by then (renewals, dunning, ...) is performed by the next request's catch-up.
    return { status: 200, body: { now: instant } };
  };

  const handler: ApiHandler = (request) => {
    const path = request.path.split('?', 1)[0];
    if (clock.frozen && path === CLOCK_PATH) return moveClock(request);
    const result = handle(state, request, { now: clock.now() });
    state = result.state;
    return result.response;
  };
  return { handler, state: () => state };
}

export interface ServeOptions {
  readonly host: string;
  readonly port: number;
  readonly site: SiteConfig;
  /** Frozen start instant; real time when absent. */
  readonly now?: string;
}

export interface RunningServer {
  readonly url: string;
  readonly port: number;
  readonly app: App;
  readonly close: () => Promise<void>;
}

/** Starts serving; resolves once listening. */
export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const clock = options.now === undefined ? realClock() : frozenClock(options.now);
  const app = createApp(options.site, clock);
  const server = createHttpServer(app.handler);
  const port = await listen(server, options.port, options.host);
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return { url: `http://${host}:${port}`, port, app, close: () => closeServer(server) };
}

/** Parses `serve` flags into options, or an error message. */
export async function serveOptions(
  args: readonly string[],
): Promise<{ ok: true; value: ServeOptions } | { ok: false; error: string }> {
  let values: {
    host?: string | undefined;
    port?: string | undefined;
    'api-key'?: string[] | undefined;
    site?: string | undefined;
    now?: string | undefined;
  };
  try {
    values = parseArgs({
      args: [...args],
      options: {
        host: { type: 'string', default: '127.0.0.1' },
        port: { type: 'string', default: '3000' },
        'api-key': { type: 'string', multiple: true },
        site: { type: 'string' },
        now: { type: 'string' },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : 'invalid arguments' };
  }
  const port = Number(values.port);
  if (!/^\d{1,5}$/.test(values.port ?? '') || port > 65_535)
    return { ok: false, error: `--port must be a port number, not "${values.port}"` };
  let site: SiteConfig = {};
  if (values.site !== undefined) {
    const read = await readSiteConfig(values.site);
    if (!read.ok) return read;
    site = read.value;
  }
  const apiKeys = [...(site.apiKeys ?? []), ...(values['api-key'] ?? [])];
  if (apiKeys.length === 0) return { ok: false, error: 'serve needs an --api-key (or apiKeys in --site)' };
  const base = { host: values.host ?? '127.0.0.1', port, site: { ...site, apiKeys } };
  if (values.now === undefined) return { ok: true, value: base };
  const now = parseInstant(values.now);
  if (now === undefined)
    return { ok: false, error: `--now must be an ISO 8601 timestamp, not "${values.now}"` };
  return { ok: true, value: { ...base, now } };
}

/** Resolves on the first SIGINT or SIGTERM; listens from the moment it is called. */
function termination(): { readonly signalled: Promise<unknown>; readonly dispose: () => void } {
  let dispose = () => {};
  const signalled = new Promise((resolve) => {
    const stop = (signal: string) => {
      dispose();
      resolve(signal);
    };
    dispose = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  return { signalled, dispose };
}

/** `billing-core serve ...`: serves until `until` settles (by default SIGINT or SIGTERM). */
export async function serveCommand(
  args: readonly string[],
  io: CliIo,
  until: () => { readonly signalled: Promise<unknown>; readonly dispose: () => void } = termination,
): Promise<number> {
  const options = await serveOptions(args);
  if (!options.ok) {
    io.stderr(`billing-core serve: ${options.error}`);
    return 2;
  }
  // Listen for signals before the server starts, so that one sent right after "listening" is not lost.
  const stop = until();
  let running: RunningServer;
  try {
    running = await startServer(options.value);
  } catch (error) {
    stop.dispose();
    io.stderr(`billing-core serve: cannot listen: ${error instanceof Error ? error.message : 'error'}`);
    return 1;
  }
  io.stdout(`listening on ${running.url}`);
  if (options.value.now !== undefined)
    io.stdout(`clock frozen at ${options.value.now}; POST ${CLOCK_PATH} moves it`);
  await stop.signalled;
  await running.close();
  return 0;
}
