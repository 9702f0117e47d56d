/**
 * Heap per subscription of a state read back from disk, as `billing-core serve --data-dir` holds it
 * after a restart: builds sites of two sizes (`signedUpSite`), writes each as the snapshot of a new data
 * directory, opens each directory in a fresh process (`openStore`, as `serve` starts) and reports the heap
 * the larger loaded state holds beyond the smaller one, divided by the difference in subscriptions, beside
 * the time each start took. With `--snapshot FILE` the fresh process that opens the larger site also
 * writes a heap snapshot of it for `heap-breakdown.ts`. Another fresh process reads the larger snapshot's
 * pieces into a state without the reader's upgrades and times `shareLoadedState` on it alone: what the
 * restored sharing adds to a start.
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
import { shareLoadedState } from '../src/engine/persistence/share.js';
import type { SiteState } from '../src/index.js';
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

/** In the fresh process: the snapshot's pieces assembled as they are, then `shareLoadedState` timed. */
function shareCost(dir: string): void {
  const assembler = new PieceAssembler();
  // Pieces start with `[`; the trailer line does not.
  for (const line of readFileSync(join(dir, SNAPSHOT_FILE), 'utf8').split('\n'))
    if (line.startsWith('[')) assembler.add(line);
  const state = assembler.value() as SiteState;
  collect();
  const started = performance.now();
  const cpu = process.cpuUsage();
  shareLoadedState(state);
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
): Promise<{ heap: number; ms: number; shareMs: number | undefined }> {
  const dir = await mkdtemp(join(tmpdir(), 'billing-core-loaded-'));
  try {
    await writeFile(join(dir, segmentName(0)), '');
    await writeSnapshot(dir, { position: 0, state: signedUpSite(count, SIGNUP) });
    const opened = fresh<{ heap: number; ms: number }>(
      snapshot === undefined ? [OPEN, dir] : [OPEN, dir, '--snapshot', snapshot],
    );
    const shareMs = cost ? fresh<{ ms: number }>([SHARE_COST, dir]).ms : undefined;
    return { ...opened, shareMs };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === OPEN) {
  await open(process.argv[3] ?? '', option('--snapshot'));
} else if (process.argv[2] === SHARE_COST) {
  shareCost(process.argv[3] ?? '');
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
  console.log(
    `shareLoadedState on ${large}: ${share.toFixed(0)} ms (${((share / large) * 100_000).toFixed(0)} ms per 100,000 subscriptions), ${((share / b.ms) * 100).toFixed(1)}% of that start`,
  );
}
