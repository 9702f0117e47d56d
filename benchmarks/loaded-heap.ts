/**
 * Heap per subscription of a state read back from disk, as `billing-core serve --data-dir` holds it
 * after a restart: builds sites of two sizes (`signedUpSite`), writes each as the snapshot of a new data
 * directory, opens each directory in a fresh process (`openStore`, as `serve` starts) and reports the heap
 * the larger loaded state holds beyond the smaller one, divided by the difference in subscriptions, beside
 * the time each start took. With `--snapshot FILE` the fresh process that opens the larger site also
 * writes a heap snapshot of it for `heap-breakdown.ts`. Then fresh processes read the larger snapshot's
 * pieces into a state with the sharing `readSnapshot` does as it reads (`PieceSharing`) and without,
 * alternately, twice each: the difference of the least CPU times is what the sharing adds to a start.
 *
 * Run (after `npx tsc -p tsconfig.bench.json`):
 *   node --expose-gc --max-old-space-size=8192 .bench-build/benchmarks/loaded-heap.js
 *        [--small 10000] [--large 50000] [--snapshot /tmp/loaded.heapsnapshot]
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeHeapSnapshot } from 'node:v8';
import { openStore } from '../src/cli/data-dir.js';
import { segmentName } from '../src/cli/journal.js';
import { SNAPSHOT_FILE, writeSnapshot } from '../src/cli/snapshot.js';
import { PieceAssembler } from '../src/engine/persistence/pieces.js';
import { PieceSharing } from '../src/engine/persistence/share.js';
import { signedUpSite } from './bench-site.js';

const SIGNUP = '2026-01-15T12:00:00Z';
const OPEN = '--open';
const SHARE_COST = '--share-cost';

function option(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
}

function collect(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('run with node --expose-gc');
  for (let n = 0; n < 4; n += 1) gc();
  return process.memoryUsage().heapUsed;
}

/** In the fresh process: opens `dir` and prints the heap its state holds and the time the start took. */
async function open(dir: string, snapshot: string | undefined): Promise<void> {
  const before = collect();
  const started = performance.now();
  const store = await openStore(dir, { site: {}, portalSecret: 'a'.repeat(64) });
  if (!store.ok) throw new Error(store.error);
  const ms = performance.now() - started;
  const heap = collect() - before;
  if (snapshot !== undefined) writeHeapSnapshot(snapshot);
  process.stdout.write(`${JSON.stringify({ heap, ms })}\n`);
  await store.value.close();
}

/**
 * In the fresh process: the snapshot's pieces read into a state, with the sharing `readSnapshot` does as
 * they are read (`PieceSharing`) or without; answers the time and CPU time of reading and assembling.
 */
function shareCost(dir: string, shared: boolean): void {
  const text = readFileSync(join(dir, SNAPSHOT_FILE), 'utf8');
  collect();
  const started = performance.now();
  const cpu = process.cpuUsage();
  const sharing = new PieceSharing();
  const assembler = new PieceAssembler(shared ? (at, value) => sharing.piece(at, value) : undefined);
  // Pieces start with `[`; the trailer line does not.
  for (const line of text.split('\n')) if (line.startsWith('[')) assembler.add(line);
  assembler.value();
  collect();
  const used = process.cpuUsage(cpu);
  const ms = performance.now() - started;
  process.stdout.write(`${JSON.stringify({ ms, cpuMs: (used.user + used.system) / 1000 })}\n`);
}

/** Runs this file in a fresh process with `args`; answers the last line it printed, parsed. */
function fresh<T>(args: readonly string[]): T {
  const child = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), ...args], {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  if (child.status !== 0) throw new Error(`the fresh process failed: ${child.stderr}`);
  return JSON.parse(child.stdout.trim().split('\n').at(-1) ?? '') as T;
}

/**
 * Builds a site of `count`, writes it as a new data directory and opens it in a fresh process; with
 * `cost`, times the sharing alone in another.
 */
async function loaded(
  count: number,
  snapshot: string | undefined,
  cost: boolean,
): Promise<{ heap: number; ms: number; shareMs: number | undefined; readMs: number | undefined }> {
  const dir = await mkdtemp(join(tmpdir(), 'billing-core-loaded-'));
  try {
    await writeFile(join(dir, segmentName(0)), '');
    await writeSnapshot(dir, { position: 0, state: signedUpSite(count, SIGNUP) });
    const opened = fresh<{ heap: number; ms: number }>(
      snapshot === undefined ? [OPEN, dir] : [OPEN, dir, '--snapshot', snapshot],
    );
    // Read with and without the sharing, alternately, twice each; the least of each (the machine is shared).
    const runs = { with: [] as number[], without: [] as number[] };
    if (cost)
      for (let round = 0; round < 2; round += 1) {
        runs.without.push(fresh<{ cpuMs: number }>([SHARE_COST, dir]).cpuMs);
        runs.with.push(fresh<{ cpuMs: number }>([SHARE_COST, dir, '--shared']).cpuMs);
      }
    const shareMs = cost ? Math.min(...runs.with) - Math.min(...runs.without) : undefined;
    const readMs = cost ? Math.min(...runs.without) : undefined;
    return { ...opened, shareMs, readMs };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === OPEN) {
  await open(process.argv[3] ?? '', option('--snapshot'));
} else if (process.argv[2] === SHARE_COST) {
  shareCost(process.argv[3] ?? '', process.argv.includes('--shared'));
} else {
  const small = Number(option('--small') ?? 10_000);
  const large = Number(option('--large') ?? 50_000);
  const a = await loaded(small, undefined, false);
  const b = await loaded(large, option('--snapshot'), true);
  const perSubscription = (b.heap - a.heap) / (large - small);
  console.log(
    `loaded heap per subscription (${small} → ${large}): ${(perSubscription / 1024).toFixed(2)} KB (${Math.round(perSubscription)} bytes); start ${(a.ms / 1000).toFixed(1)} s and ${(b.ms / 1000).toFixed(1)} s`,
  );
  const share = b.shareMs ?? 0;
  const read = b.readMs ?? 1;
  console.log(
    `sharing while reading ${large}: ${share.toFixed(0)} ms of CPU (${((share / large) * 100_000).toFixed(0)} ms per 100,000 subscriptions) on ${read.toFixed(0)} ms to read and assemble the pieces without it (${((share / read) * 100).toFixed(1)}%)`,
  );
}
