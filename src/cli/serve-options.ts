/** The flags of `billing-core serve`, parsed and checked into `ServeOptions`. */

import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { AsyncPaymentGateway } from '../domain/payment/types.js';
import type { SiteConfig, SiteMetric } from '../domain/site/config.js';
import { parseInstant } from './clock.js';
import { readSiteConfig } from './site-config.js';

export interface ServeOptions {
  readonly host: string;
  readonly port: number;
  readonly site: SiteConfig;
  /** Frozen start instant; real time when absent. */
  readonly now?: string;
  /** Keep the site on disk here (snapshot and journal); in memory only when absent. */
  readonly dataDir?: string;
  /** Journal records between snapshots (with `dataDir`). */
  readonly snapshotEvery?: number;
  /** Serve HTTPS with this PEM certificate and key. */
  readonly tls?: { readonly cert: string; readonly key: string };
  /** The secret that signs portal links (`--portal-secret`); random when neither this nor the site sets one. */
  readonly portalSecret?: string;
  /** Move damaged journal bytes aside instead of refusing to start (with `dataDir`). */
  readonly repair?: boolean;
  /** The payment processor (`--gateway <module>`, or given by a host starting the server); the test gateway when absent. */
  readonly payments?: AsyncPaymentGateway;
}

type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

const FLAGS = {
  host: { type: 'string', default: '127.0.0.1' },
  port: { type: 'string', default: '3000' },
  'api-key': { type: 'string', multiple: true },
  site: { type: 'string' },
  now: { type: 'string' },
  'data-dir': { type: 'string' },
  'snapshot-every': { type: 'string' },
  'tls-cert': { type: 'string' },
  'tls-key': { type: 'string' },
  'portal-secret': { type: 'string' },
  repair: { type: 'boolean' },
  metric: { type: 'string', multiple: true },
  gateway: { type: 'string' },
} as const;

const AGGREGATIONS = ['count', 'sum', 'max', 'unique'] as const;
const METRIC_PART = /^[A-Za-z0-9_.-]{1,255}$/;

/**
 * `--metric <stream>:<aggregation>[:<property>]`, e.g. `api:count` or `api:sum:bytes`: an events-based
 * billing metric (the official API has no operation that creates one), numbered after the site file's.
 */
function metricFlag(text: string, id: number): Parsed<SiteMetric> {
  const [stream = '', aggregation = '', property, ...rest] = text.split(':');
  const known = AGGREGATIONS.find((each) => each === aggregation);
  const bad = (why: string): Parsed<SiteMetric> => ({
    ok: false,
    error: `--metric ${JSON.stringify(text)}: ${why}; write <stream>:<count|sum|max|unique>[:<property>]`,
  });
  if (rest.length > 0 || !METRIC_PART.test(stream)) return bad('a stream handle of letters, digits, _ . -');
  if (known === undefined) return bad(`unknown aggregation "${aggregation}"`);
  if (property !== undefined && !METRIC_PART.test(property))
    return bad('a property of letters, digits, _ . -');
  if (known !== 'count' && property === undefined) return bad(`${known} needs a property`);
  const name = property === undefined ? `${stream} ${known}` : `${stream} ${known} of ${property}`;
  return {
    ok: true,
    value: {
      id,
      name,
      streamHandle: stream,
      aggregation: known,
      ...(property === undefined ? {} : { property }),
    },
  };
}

async function readPem(flag: string, path: string): Promise<Parsed<string>> {
  try {
    return { ok: true, value: await readFile(path, 'utf8') };
  } catch (error) {
    return {
      ok: false,
      error: `cannot read ${flag} ${path}: ${error instanceof Error ? error.message : error}`,
    };
  }
}

async function tlsOption(
  cert: string | undefined,
  key: string | undefined,
): Promise<Parsed<ServeOptions['tls']>> {
  if (cert === undefined && key === undefined) return { ok: true, value: undefined };
  if (cert === undefined || key === undefined)
    return { ok: false, error: '--tls-cert and --tls-key go together' };
  const certPem = await readPem('--tls-cert', cert);
  if (!certPem.ok) return certPem;
  const keyPem = await readPem('--tls-key', key);
  if (!keyPem.ok) return keyPem;
  return { ok: true, value: { cert: certPem.value, key: keyPem.value } };
}

/**
 * `--gateway <module>`: an ES module whose default export is the payment processor, a function from a
 * payment attempt to its outcome or a promise of it (README "A real payment processor").
 */
async function gatewayModule(path: string): Promise<Parsed<AsyncPaymentGateway>> {
  let loaded: unknown;
  try {
    loaded = await import(pathToFileURL(resolve(path)).href);
  } catch (error) {
    return {
      ok: false,
      error: `cannot load --gateway ${path}: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  const gateway: unknown =
    typeof loaded === 'object' && loaded !== null ? Reflect.get(loaded, 'default') : undefined;
  if (typeof gateway !== 'function')
    return { ok: false, error: `--gateway ${path} must export a function as its default export` };
  // A function's parameters cannot be checked at run time; its answers are (settleAttempt).
  return { ok: true, value: gateway as AsyncPaymentGateway };
}

const parseFlags = (args: readonly string[]) =>
  parseArgs({ args: [...args], options: FLAGS, strict: true, allowPositionals: false }).values;

/** Parses `serve` flags into options, or an error message. */
export async function serveOptions(args: readonly string[]): Promise<Parsed<ServeOptions>> {
  let values: ReturnType<typeof parseFlags>;
  try {
    values = parseFlags(args);
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
  const metrics = [...(site.metrics ?? [])];
  for (const text of values.metric ?? []) {
    const metric = metricFlag(text, Math.max(0, ...metrics.map((each) => each.id)) + 1);
    if (!metric.ok) return metric;
    metrics.push(metric.value);
  }
  let options: ServeOptions = {
    host: values.host ?? '127.0.0.1',
    port,
    site: { ...site, apiKeys, ...(metrics.length === 0 ? {} : { metrics }) },
  };
  if (values.now !== undefined) {
    const now = parseInstant(values.now);
    if (now === undefined)
      return { ok: false, error: `--now must be an ISO 8601 timestamp, not "${values.now}"` };
    options = { ...options, now };
  }
  if (values['data-dir'] !== undefined) {
    if (values['data-dir'].length === 0) return { ok: false, error: '--data-dir needs a directory' };
    options = { ...options, dataDir: values['data-dir'] };
  }
  const every = values['snapshot-every'];
  if (every !== undefined) {
    if (values['data-dir'] === undefined) return { ok: false, error: '--snapshot-every needs --data-dir' };
    if (!/^\d{1,9}$/.test(every) || Number(every) < 1)
      return { ok: false, error: `--snapshot-every must be a positive whole number, not "${every}"` };
    options = { ...options, snapshotEvery: Number(every) };
  }
  const secret = values['portal-secret'];
  if (secret !== undefined) {
    if (secret.length < 16 || secret.length > 500)
      return { ok: false, error: '--portal-secret must be 16 to 500 characters' };
    options = { ...options, portalSecret: secret };
  }
  if (values.repair === true) {
    if (values['data-dir'] === undefined) return { ok: false, error: '--repair needs --data-dir' };
    options = { ...options, repair: true };
  }
  if (values.gateway !== undefined) {
    const gateway = await gatewayModule(values.gateway);
    if (!gateway.ok) return gateway;
    options = { ...options, payments: gateway.value };
  }
  const tls = await tlsOption(values['tls-cert'], values['tls-key']);
  if (!tls.ok) return tls;
  return { ok: true, value: tls.value === undefined ? options : { ...options, tls: tls.value } };
}
