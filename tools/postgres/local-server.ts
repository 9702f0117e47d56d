/**
 * A throwaway PostgreSQL server from the system's packages: `initdb` into a temporary folder, `postgres`
 * on a free loopback port, stopped and deleted by `stop()`. PostgreSQL refuses to run as root, so as root
 * the folder is given to the `postgres` user and the server runs as that user.
 */

import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A running server: its connection string, and how to stop it. */
export interface LocalPostgres {
  readonly url: string;
  readonly port: number;
  /** Stops the server and deletes its data. */
  readonly stop: () => void;
  /** Stops the server, keeping its data (the database becomes unreachable). */
  readonly pause: () => void;
  /** Starts a paused server again on the same port. */
  readonly resume: () => void;
}

/** The newest PostgreSQL installed from the system's packages, or a clear error saying how to install one. */
export function postgresBin(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((name) => existsSync(join(root, name, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  const newest = versions[0];
  if (newest === undefined)
    throw new Error(
      'PostgreSQL is not installed: apt-get install -y postgresql (it provides initdb and postgres)',
    );
  return join(root, newest, 'bin');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function userIds(name: string): { uid: number; gid: number } {
  const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }).trim());
  return { uid, gid };
}

export interface LocalPostgresOptions {
  /** Skip fsync (tests: the server itself is never killed, only its clients). Default false. */
  readonly fast?: boolean;
}

/** Starts a new server; throws (never skips) when it cannot. */
export async function startLocalPostgres(options: LocalPostgresOptions = {}): Promise<LocalPostgres> {
  const bin = postgresBin();
  const dir = mkdtempSync(join(tmpdir(), 'billing-core-pg-'));
  const data = join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const { uid, gid } = userIds('postgres');
    chownSync(dir, uid, gid);
  }
  const run = (command: string, args: readonly string[]) =>
    asRoot
      ? execFileSync('runuser', ['-u', 'postgres', '--', join(bin, command), ...args], { stdio: 'pipe' })
      : execFileSync(join(bin, command), [...args], { stdio: 'pipe' });
  const port = await freePort();
  const settings = [
    `-p ${port}`,
    '-c listen_addresses=127.0.0.1',
    `-k ${dir}`,
    '-c max_connections=200',
    ...(options.fast === true ? ['-c fsync=off', '-c full_page_writes=off'] : []),
  ].join(' ');
  const resume = () =>
    run('pg_ctl', ['-D', data, '-l', join(dir, 'server.log'), '-o', settings, '-w', '-t', '60', 'start']);
  try {
    run('initdb', ['-D', data, '-A', 'trust', '-U', 'billing', '-E', 'UTF8', '--no-sync']);
    resume();
  } catch (error) {
    const output = error instanceof Error && 'stderr' in error ? String(error.stderr) : '';
    rmSync(dir, { recursive: true, force: true });
    throw new Error(
      `cannot start PostgreSQL from ${bin}: ${error instanceof Error ? error.message : error} ${output}`,
    );
  }
  const stop = () => {
    try {
      run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  const pause = () => run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
  return { url: `postgres://billing@127.0.0.1:${port}/postgres`, port, stop, pause, resume };
}
