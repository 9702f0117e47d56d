/**
 * The official SDK (`@maxio-com/advanced-billing-sdk`) pointed at billing-core, two ways: at a spawned
 * `billing-core serve` over loopback HTTP, or at the same server's handler in-process through
 * `billing-core/sdk` (no socket). The interop suites run both: vitest's `interop-in-process` project
 * sets BILLING_CORE_INTEROP_TRANSPORT=in-process.
 * Over HTTP: the SDK has no base-URL option, it always builds `https://{site}.chargify.com` (and
 * `https://events.chargify.com/{site}` for event ingestion), so every request's URL is rewritten onto
 * the loopback server before it is sent (api-notes section 1.3).
 */

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@maxio-com/advanced-billing-sdk';
import { createInProcessClient } from '../../src/adapters/sdk.js';
import { frozenClock } from '../../src/cli/clock.js';
import { createApp, serveOptions } from '../../src/cli/serve.js';
import { createSite, type SiteConfig, type SiteState } from '../../src/index.js';
import { finished, startCli, waitForLine } from '../cli/spawn-cli.js';

const SITE = 'acme';

/** What every SDK controller takes: only the request builder factory is ever called. */
export interface LocalClient {
  readonly getRequestBuilderFactory: Client['getRequestBuilderFactory'];
}

/** A client whose requests go to `baseUrl` with HTTP Basic auth `apiKey:x`. */
export function localClient(baseUrl: string, apiKey: string): LocalClient {
  const sdk = new Client({
    basicAuthCredentials: { username: apiKey, password: 'x' },
    site: SITE,
    timeout: 10_000,
    httpClientOptions: { retryConfig: { maxNumberOfRetries: 0 } },
  });
  const factory = sdk.getRequestBuilderFactory();
  const production = `https://${SITE}.chargify.com`;
  const events = `https://events.chargify.com/${SITE}`;
  const rewrite = (url: string) =>
    url.startsWith(production)
      ? baseUrl + url.slice(production.length)
      : url.startsWith(events)
        ? baseUrl + url.slice(events.length)
        : url;
  const local: typeof factory = (method, path) => {
    const builder = factory(method, path);
    builder.interceptRequest((request) => ({ ...request, url: rewrite(request.url) }));
    return builder;
  };
  return { getRequestBuilderFactory: () => local };
}

/** The value, failing the test when the SDK decoded it as absent. */
export function present<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) throw new Error(`the SDK decoded no ${what}`);
  return value;
}

/** How the suites reach billing-core: a spawned server over HTTP, or in-process. */
export const TRANSPORT: 'http' | 'in-process' =
  process.env.BILLING_CORE_INTEROP_TRANSPORT === 'in-process' ? 'in-process' : 'http';

export interface ServedSite {
  /** Where the server listens (over HTTP), or a name for the in-process site. */
  readonly url: string;
  /** An SDK client with HTTP Basic auth `apiKey:x`. */
  readonly client: (apiKey: string) => LocalClient;
  /** Sends a raw request (what the SDK cannot say, such as the test clock route). */
  readonly send: (path: string, init: RequestInit) => Promise<Response>;
  readonly stop: () => Promise<void>;
  /** The site's state, in-process only (over HTTP the state lives in the spawned server). */
  readonly state?: () => SiteState;
}

/** The same server as `billing-core serve --now`, in-process: its handler, its frozen clock. */
function inProcessSite(site: SiteConfig, now: string): ServedSite {
  const state = createSite({ portalSecret: 'in-process interop portal secret', ...site });
  const app = createApp({ state, clock: frozenClock(new Date(now).toISOString()) });
  return {
    url: 'in-process',
    client: (apiKey) =>
      createInProcessClient({
        app: app.fetch,
        sdk: { site: SITE, basicAuthCredentials: { username: apiKey, password: 'x' } },
      }).client,
    send: (path, init) => app.fetch(new Request(`http://in-process${path}`, init)),
    stop: async () => {},
    state: app.state,
  };
}

/**
 * The site most suites serve: the SDK's dialect, the subdomain the SDK's URLs name, UTC, one API key and
 * the metric that event-based components count; `more` adds to it or overrides it.
 */
export const interopSite = (apiKey: string, more: SiteConfig = {}): SiteConfig => ({
  serviceName: 'chargify',
  subdomain: SITE,
  apiKeys: [apiKey],
  timeZone: 'UTC',
  metrics: [{ id: 1, name: 'API calls', streamHandle: 'api-calls', aggregation: 'count' }],
  ...more,
});

/**
 * Spawns the real `billing-core serve` on a free loopback port with a site that speaks the SDK's
 * dialect (`serviceName: "chargify"`) and a clock frozen at `now`.
 */
export async function serveSite(site: SiteConfig, now: string): Promise<ServedSite> {
  if (TRANSPORT === 'in-process') return inProcessSite(site, now);
  const dir = await mkdtemp(join(tmpdir(), 'billing-core-interop-'));
  const file = join(dir, 'site.json');
  await writeFile(file, JSON.stringify(site));
  return spawnServe(['--site', file], now, dir);
}

/** A bare `billing-core serve` with only command-line flags (no site file), its clock frozen at `now`. */
export async function serveBare(flags: readonly string[], now: string): Promise<ServedSite> {
  if (TRANSPORT === 'in-process') {
    const options = await serveOptions([...flags]);
    if (!options.ok) throw new Error(options.error);
    return inProcessSite(options.value.site, now);
  }
  return spawnServe(flags, now, await mkdtemp(join(tmpdir(), 'billing-core-interop-')));
}

async function spawnServe(flags: readonly string[], now: string, dir: string): Promise<ServedSite> {
  const child = startCli(['serve', '--port', '0', ...flags, '--now', now]);
  const done = finished(child);
  let url: string;
  try {
    const [, listening] = await waitForLine(child, /listening on (http:\/\/127\.0\.0\.1:\d+)\n/);
    url = listening ?? '';
  } catch (error) {
    const output = await done;
    await rm(dir, { recursive: true, force: true });
    throw new Error(`serve did not start: ${output.stderr || String(error)}`);
  }
  const stop = async () => {
    child.kill('SIGTERM');
    const result = await done;
    await rm(dir, { recursive: true, force: true });
    // How the program exits is test/cli/serve.test.ts's concern; here only a crash report matters.
    if (result.stderr !== '') throw new Error(`serve reported: ${result.stderr}`);
  };
  return {
    url,
    client: (apiKey) => localClient(url, apiKey),
    send: (path, init) => fetch(`${url}${path}`, init),
    stop,
  };
}

/** Moves a frozen server's clock (the engine's test route; the SDK has no such operation). */
export async function moveServerClock(
  served: ServedSite | undefined,
  apiKey: string,
  now: string,
): Promise<number> {
  if (served === undefined) throw new Error('no server');
  const response = await served.send('/_test/clock.json', {
    method: 'POST',
    headers: {
      Authorization: `Basic ${Buffer.from(`${apiKey}:x`).toString('base64')}`,
      'Content-Type': 'application/json',
    },
    body: JSON.stringify({ now }),
  });
  return response.status;
}
