/** The flags of `billing-core serve --database-url` (many sites in PostgreSQL). */

import { parseArgs } from 'node:util';

/** How a multi-site server runs. */
export interface MultiSiteOptions {
  readonly databaseUrl: string;
  readonly host: string;
  readonly port: number;
  /** Where other processes reach this one (for forwarding); `http://host:port` when absent. */
  readonly advertise?: string;
  /** How long a site's lease lasts without renewal; a dead process's sites are taken over after it. */
  readonly leaseMs: number;
  /** A site with no request for this long is released (snapshotted, its lease freed). */
  readonly idleMs: number;
  /** Journal records between a site's snapshots. */
  readonly snapshotEvery: number;
}

type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

const FLAGS = {
  'database-url': { type: 'string' },
  host: { type: 'string', default: '127.0.0.1' },
  port: { type: 'string', default: '3000' },
  advertise: { type: 'string' },
  'lease-ms': { type: 'string', default: '5000' },
  'idle-ms': { type: 'string', default: '60000' },
  'snapshot-every': { type: 'string', default: '1000' },
} as const;

function whole(name: string, text: string | undefined, least: number): Parsed<number> {
  if (!/^\d{1,9}$/.test(text ?? '') || Number(text) < least)
    return { ok: false, error: `--${name} must be a whole number of at least ${least}, not "${text}"` };
  return { ok: true, value: Number(text) };
}

/** Whether `serve` was asked for many sites in a database. */
export const wantsDatabase = (args: readonly string[]): boolean =>
  args.some((arg) => arg === '--database-url' || arg.startsWith('--database-url='));

/** Parses the flags, or says what is wrong. */
export function multiSiteOptions(args: readonly string[]): Parsed<MultiSiteOptions> {
  let values: { [K in keyof typeof FLAGS]?: string | undefined };
  try {
    values = parseArgs({ args: [...args], options: FLAGS, strict: true, allowPositionals: false }).values;
  } catch (error) {
    const message = error instanceof Error ? error.message : 'invalid arguments';
    return {
      ok: false,
      error: `${message} (with --database-url, API keys and site settings belong to each site: billing-core sites create)`,
    };
  }
  const url = values['database-url'];
  if (url === undefined || url.length === 0)
    return { ok: false, error: '--database-url needs a connection string' };
  const port = whole('port', values.port, 0);
  if (!port.ok) return port;
  if (port.value > 65_535) return { ok: false, error: `--port must be a port number, not "${values.port}"` };
  const leaseMs = whole('lease-ms', values['lease-ms'], 500);
  if (!leaseMs.ok) return leaseMs;
  const idleMs = whole('idle-ms', values['idle-ms'], 1);
  if (!idleMs.ok) return idleMs;
  const every = whole('snapshot-every', values['snapshot-every'], 1);
  if (!every.ok) return every;
  return {
    ok: true,
    value: {
      databaseUrl: url,
      host: values.host ?? '127.0.0.1',
      port: port.value,
      ...(values.advertise === undefined ? {} : { advertise: values.advertise.replace(/\/+$/, '') }),
      leaseMs: leaseMs.value,
      idleMs: idleMs.value,
      snapshotEvery: every.value,
    },
  };
}
