/**
 * `billing-core serve`: the REST API over HTTP (or HTTPS with `--tls-cert`/`--tls-key`). Requests are
 * applied one at a time in arrival order. The site lives in memory, and with `--data-dir` also on disk
 * (see data-dir.ts). With `--now` the clock is frozen and `POST /_test/clock.json` moves it forward.
 */

import { createFetchHandler, type SiteHandler } from '../adapters/fetch.js';
import { close as closeServer, createAnswerServer, listen } from '../adapters/node-http.js';
import { isAuthorized } from '../api/auth.js';
import type { ApiRequest, ApiResponse } from '../api/types.js';
import type { AsyncPaymentGateway } from '../domain/payment/types.js';
import { createSite, type SiteState } from '../engine/state.js';
import { type Clock, frozenClock, parseInstant, realClock } from './clock.js';
import { openStore, randomPortalSecret, type Store } from './data-dir.js';
import type { FileLayer } from './files.js';
import type { CliIo } from './io.js';
import { type ServeOptions, serveOptions } from './serve-options.js';
import { multiSiteServeCommand } from './sites/commands.js';
import { wantsDatabase } from './sites/options.js';

export { type ServeOptions, serveOptions };

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

/** The site behind the server: a fetch handler, and a view of its current state. */
export interface App {
  readonly fetch: SiteHandler;
  readonly state: () => SiteState;
}

export interface AppOptions {
  readonly state: SiteState;
  readonly clock: Clock;
  /** Where accepted changes are journaled, if anywhere. */
  readonly store?: Store;
  /** Where a bug the engine hit is reported (serve: standard error). */
  readonly report?: (message: string) => void;
  /** The payment processor; the test gateway when absent. */
  readonly payments?: AsyncPaymentGateway;
}

/** Builds the server's handler over a site and a clock. */
export function createApp({ state: initial, clock, store, report, payments }: AppOptions): App {
  const moveClock = (request: ApiRequest, state: SiteState): ApiResponse => {
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
    store?.recordClock(instant);
    // What falls due by then (renewals, dunning, ...) is performed by the next request's catch-up.
    return { status: 200, body: { now: instant } };
  };

  const fetch = createFetchHandler({
    state: initial,
    now: () => clock.now(),
    intercept: (request, state) =>
      clock.frozen && request.path.split('?', 1)[0] === CLOCK_PATH ? moveClock(request, state) : undefined,
    ...(store === undefined ? {} : { commit: store.commit }),
    ...(payments === undefined ? {} : { payments }),
    onFault: (fault, request) =>
      report?.(
        `internal error ${fault.id} on ${request.method} ${request.path}: ${fault.message}\n${fault.stack}`,
      ),
  });
  return { fetch, state: fetch.state };
}

export interface RunningServer {
  readonly url: string;
  readonly port: number;
  readonly app: App;
  /** Settles with the error when a change could not be saved (never, without a data dir). */
  readonly failed: Promise<Error>;
  /** Stops serving; with a data dir, flushes the journal and writes a final snapshot. */
  readonly close: () => Promise<void>;
}

const latest = (instants: readonly (string | null | undefined)[]): string | undefined =>
  instants.reduce<string | undefined>(
    (max, instant) =>
      instant == null || (max !== undefined && Date.parse(max) >= Date.parse(instant)) ? max : instant,
    undefined,
  );

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Starts serving (opening the data dir first, if any); resolves once listening. */
export async function startServer(
  options: ServeOptions,
  warn: (message: string) => void = () => {},
  /** The data dir's file operations (tests inject faults here). */
  files?: FileLayer,
): Promise<RunningServer> {
  let store: Store | undefined;
  let storageFailed: (error: Error) => void = () => {};
  const failed = new Promise<Error>((resolve) => {
    storageFailed = resolve;
  });
  if (options.dataDir !== undefined) {
    const opened = await openStore(options.dataDir, {
      site: options.site,
      warn,
      ...(options.snapshotEvery === undefined ? {} : { snapshotEvery: options.snapshotEvery }),
      ...(options.portalSecret === undefined ? {} : { portalSecret: options.portalSecret }),
      ...(options.repair === true ? { repair: true } : {}),
      ...(files === undefined ? {} : { files }),
    });
    if (!opened.ok) throw new Error(`cannot open ${options.dataDir}: ${opened.error}`);
    const saving = opened.value;
    store = {
      ...saving,
      commit: (applied) =>
        saving.commit(applied).catch((error: unknown) => {
          const failure = error instanceof Error ? error : new Error(String(error));
          storageFailed(failure);
          throw failure;
        }),
    };
  }
  // In memory, a site without a secret of its own gets a random one for this process (the core never
  // invents one).
  const portalSecret = options.portalSecret ?? options.site.portalSecret ?? randomPortalSecret();
  const state = store?.state ?? createSite({ ...options.site, portalSecret });
  // A frozen clock never starts behind what the stored site has already seen.
  const start = options.now === undefined ? undefined : latest([options.now, store?.clock, state.clock]);
  const clock = start === undefined ? realClock() : frozenClock(start);
  const app = createApp({
    state,
    clock,
    report: warn,
    ...(store === undefined ? {} : { store }),
    ...(options.payments === undefined ? {} : { payments: options.payments }),
  });
  // Credentials are checked from the headers before the body is read (node-http.ts).
  const authorize = (request: ApiRequest): ApiResponse | undefined => {
    const keys = app.state().settings.apiKeys;
    if (keys === null || isAuthorized(headerOf(request, 'authorization'), keys)) return undefined;
    return {
      status: 401,
      body: { errors: ['HTTP Basic: Access denied.'] },
      headers: { 'WWW-Authenticate': 'Basic realm="billing-core"' },
    };
  };
  const server = createAnswerServer(app.fetch.answer, {
    authorize,
    ...(options.tls === undefined ? {} : { tls: options.tls }),
  });
  let port: number;
  try {
    port = await listen(server, options.port, options.host);
  } catch (error) {
    await store?.close();
    throw new Error(`cannot listen: ${messageOf(error)}`);
  }
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  const scheme = options.tls === undefined ? 'http' : 'https';
  const close = async () => {
    await closeServer(server);
    await store?.close(app.state());
  };
  return { url: `${scheme}://${host}:${port}`, port, app, failed, close };
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
  if (wantsDatabase(args)) return multiSiteServeCommand(args, io, until);
  const options = await serveOptions(args);
  if (!options.ok) {
    io.stderr(`billing-core serve: ${options.error}`);
    return 2;
  }
  // Listen for signals before the server starts, so that one sent right after "listening" is not lost.
  const stop = until();
  let running: RunningServer;
  try {
    running = await startServer(options.value, (message) => io.stderr(`billing-core serve: ${message}`));
  } catch (error) {
    stop.dispose();
    io.stderr(`billing-core serve: ${messageOf(error)}`);
    return 1;
  }
  io.stdout(`listening on ${running.url}`);
  if (options.value.now !== undefined)
    io.stdout(`clock frozen at ${options.value.now}; POST ${CLOCK_PATH} moves it`);
  // A change that cannot be saved (a full disk, say) is answered 503, and so is every request after it:
  // nothing more is acknowledged. The server then stops, exit code 1, so that a supervisor restarts it
  // from what is on disk (every acknowledged change) once it can save again.
  const failure = await Promise.race([stop.signalled.then(() => undefined), running.failed]);
  stop.dispose();
  if (failure !== undefined)
    io.stderr(
      `billing-core serve: cannot save a change (${failure.message}); it was answered 503 and nothing more is acknowledged. Stopping: every acknowledged change is on disk; restart once the disk can take writes again.`,
    );
  try {
    await running.close();
  } catch (error) {
    io.stderr(`billing-core serve: could not save on closing: ${messageOf(error)}`);
    return 1;
  }
  return failure === undefined ? 0 : 1;
}
