/**
 * A site of a million subscriptions on one machine, end to end (not part of `npm run bench`: it takes
 * many minutes and about 20 GB of memory at full size). After `npm run bench:build`:
 *
 *   node --expose-gc --max-old-space-size=16384 --max-semi-space-size=64 --no-allocation-site-pretenuring \
 *     .bench-build/benchmarks/million.js [count] [seconds] [clients]
 *
 * (defaults 1,000,000, 30 and 32). In order, each phase timed:
 * 1. builds a site of `count` monthly subscriptions, one signup invoice each, through the routes in
 *    batches (`applyInBatches`), and reports the heap per subscription after a full collection;
 * 2. writes it as the snapshot of a new `--data-dir` (as `serve` writes one);
 * 3. renews every subscription at one instant (`advance` until complete) and reports renewals a second;
 * 4. opens that directory in a fresh process as `serve` does (`openStore`) and reports the heap the loaded
 *    state holds per subscription (a state read back from JSON shares nothing its rows shared in memory);
 *    then starts `billing-core serve --data-dir` on it (a restart from disk), timed to listening;
 * 5. sends signups from `clients` concurrent loopback clients for `seconds`, snapshots on (the default
 *    `--snapshot-every`), then restarts with snapshots off (journal only) and sends them again; reports
 *    acknowledged signups a second and latency percentiles of both.
 */

import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openStore } from '../src/cli/data-dir.js';
import { segmentName } from '../src/cli/journal.js';
import { writeSnapshot } from '../src/cli/snapshot.js';
import { advance, type SiteState } from '../src/index.js';
import { applyInBatches, signedUpSite, signupBody } from './bench-site.js';

const RESTART_HEAP = '--restart-heap';
const restartHeapMode = process.argv[2] === RESTART_HEAP;
const [count = 1_000_000, seconds = 30, clients = 32] = process.argv
  .slice(restartHeapMode ? 4 : 2)
  .map(Number);
const KEY = 'million-key';
const SECRET = 'a'.repeat(64);
const SIGNUP = '2026-01-15T12:00:00Z';
const RENEWAL = '2026-02-15T12:00:01Z';
/** The frozen clock of the restarted server: after the signups, before anything falls due. */
const SERVED_AT = '2026-01-20T00:00:00Z';
const MAIN = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));

const collect = (): number => {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('run with --expose-gc');
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};
const mb = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
const say = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

async function timed<T>(what: string, run: () => T | Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await run();
  const ms = performance.now() - started;
  say(`${what}: ${(ms / 1000).toFixed(1)} s`);
  return { value, ms };
}

function buildSite(): SiteState {
  // In slices, so that progress shows on a run of many minutes.
  const slice = 100_000;
  let state = signedUpSite(Math.min(slice, count), SIGNUP, { apiKeys: [KEY], portalSecret: SECRET });
  say(`  ${Math.min(slice, count).toLocaleString('en-US')} subscriptions`);
  for (let done = slice; done < count; done += slice) {
    const size = Math.min(slice, count - done);
    state = applyInBatches(
      state,
      size,
      (n) => ({ method: 'POST', path: '/subscriptions.json', body: signupBody('gold', done + n) }),
      SIGNUP,
    );
    say(`  ${(done + size).toLocaleString('en-US')} subscriptions`);
  }
  return state;
}

function renewAll(state: SiteState): number {
  let current = state;
  let renewed = 0;
  for (let complete = false; !complete; ) {
    const step = advance(current, { now: RENEWAL });
    for (const event of step.events) if (event.key === 'renewal_success') renewed += 1;
    current = step.state;
    complete = step.complete;
  }
  return renewed;
}

interface Served {
  readonly child: ChildProcess;
  readonly url: URL;
}

function serve(dir: string, snapshotEvery: number): Promise<Served> {
  const child = spawn(
    process.execPath,
    [
      '--max-old-space-size=16384',
      // As README advises a host of a large site (`serve` cannot set it once running).
      '--max-semi-space-size=64',
      // For a profile of the server: SERVE_NODE_FLAGS='--cpu-prof --cpu-prof-dir=prof'.
      ...(process.env.SERVE_NODE_FLAGS ?? '').split(' ').filter((flag) => flag !== ''),
      MAIN,
      'serve',
      '--api-key',
      KEY,
      '--data-dir',
      dir,
      '--port',
      '0',
      '--portal-secret',
      SECRET,
      '--snapshot-every',
      String(snapshotEvery),
      '--now',
      SERVED_AT,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      const found = /listening on (http:\/\/[\d.:]+)/.exec(output);
      if (found?.[1] !== undefined) resolve({ child, url: new URL(found[1]) });
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${output}`)));
  });
}

async function stop(served: Served): Promise<void> {
  const exited = new Promise((resolve) => served.child.once('exit', resolve));
  served.child.kill('SIGTERM');
  await exited;
}

const authorization = `Basic ${Buffer.from(`${KEY}:x`).toString('base64')}`;

function post(agent: Agent, url: URL, path: string, body: unknown): Promise<number> {
  return new Promise((resolve, reject) => {
    const sent = request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        method: 'POST',
        path,
        headers: { authorization, 'content-type': 'application/json' },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    sent.on('error', reject);
    sent.end(JSON.stringify(body));
  });
}

async function signups(url: URL, label: string, offset: number): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  const latencies: number[] = [];
  let refused = 0;
  const end = performance.now() + seconds * 1000;
  const client = async (index: number): Promise<void> => {
    for (let i = 0; performance.now() < end; i += 1) {
      const started = performance.now();
      const status = await post(
        agent,
        url,
        '/subscriptions.json',
        signupBody('gold', offset + index * 1e6 + i),
      );
      if (status === 201) latencies.push(performance.now() - started);
      else refused += 1;
    }
  };
  await Promise.all(Array.from({ length: clients }, (_, index) => client(index)));
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (share: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * share))] ?? 0;
  say(
    `signups, ${label}: ${(latencies.length / seconds).toFixed(0)}/s acknowledged, ${refused} refused; p50 ${at(0.5).toFixed(1)} ms, p99 ${at(0.99).toFixed(1)} ms, max ${(latencies.at(-1) ?? 0).toFixed(1)} ms`,
  );
}

/** Phases 1 to 3, in a function of their own so that the site is garbage before serve starts. */
async function buildSnapshotAndRenew(dir: string): Promise<void> {
  const before = collect();
  const { value: state } = await timed('build', buildSite);
  const heap = collect() - before;
  say(`heap: ${mb(heap)}, ${(heap / count / 1024).toFixed(2)} KB per subscription`);
  // A new data directory as serve leaves one: the first journal segment, then the snapshot at position 0.
  await writeFile(join(dir, segmentName(0)), '');
  await timed('snapshot written', () => writeSnapshot(dir, { position: 0, state }));
  const renewal = await timed('renewal day', () => renewAll(state));
  say(
    `  ${renewal.value.toLocaleString('en-US')} renewals, ${(renewal.value / (renewal.ms / 1000)).toFixed(0)}/s`,
  );
}

/** Phase 4's first half, in the child process it runs in: the heap of the state `openStore` loads. */
async function restartHeap(dir: string): Promise<void> {
  const before = collect();
  const started = performance.now();
  const store = await openStore(dir, { site: {}, portalSecret: SECRET });
  if (!store.ok) throw new Error(store.error);
  const ms = performance.now() - started;
  const heap = collect() - before;
  say(`opened in a fresh process (openStore): ${(ms / 1000).toFixed(1)} s`);
  say(`heap of the loaded state: ${mb(heap)}, ${(heap / count / 1024).toFixed(2)} KB per subscription`);
  await store.value.close();
}

if (restartHeapMode) {
  await restartHeap(process.argv[3] ?? '');
  process.exit(0);
}

const dir = await mkdtemp(join(tmpdir(), 'billing-core-million-'));
try {
  say(`${count.toLocaleString('en-US')} subscriptions; ${clients} clients for ${seconds} s; data in ${dir}`);
  await buildSnapshotAndRenew(dir);
  collect();
  const self = fileURLToPath(import.meta.url);
  const child = spawnSync(process.execPath, [...process.execArgv, self, RESTART_HEAP, dir, String(count)], {
    stdio: 'inherit',
  });
  if (child.status !== 0) throw new Error(`the restart in a fresh process exited with ${child.status}`);
  const withSnapshots = await timed('restart from disk (serve --data-dir, to listening)', () =>
    serve(dir, 1000),
  );
  await signups(withSnapshots.value.url, 'snapshots on (--snapshot-every 1000)', 0);
  await stop(withSnapshots.value);
  const journalOnly = await timed('restart from disk (after the first load)', () => serve(dir, 999_999_999));
  await signups(journalOnly.value.url, 'journal only', 5e8);
  await stop(journalOnly.value);
} finally {
  await rm(dir, { recursive: true, force: true });
}
