/**
 * A site of a million subscriptions on one machine: builds it (one signup invoice each, through the
 * batched builder of bench-site.ts), reports the heap it holds per subscription, writes it as the
 * snapshot of a `serve --data-dir` directory (`writeSnapshot`, as `serve` writes a full one), then times a start
 * from that directory in a fresh process (`openStore`, as `billing-core serve --data-dir` starts) and
 * reports the heap the loaded state holds.
 *
 * Run: node --expose-gc --max-old-space-size=16384 --import tsx benchmarks/million.ts
 *        [--count 1000000] [--dir /tmp/million-site]
 * Not part of `npm run bench`: at a million it takes several minutes and ~6 GB.
 */
import { spawnSync } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { openStore } from '../src/cli/data-dir.js';
import { writeSnapshot } from '../src/cli/snapshot.js';
import type { SiteState } from '../src/index.js';
import { applyInBatches, BenchSite, signupBody } from './bench-site.js';

const SIGNUP = '2026-01-15T12:00:00Z';
const SECRET = 'a'.repeat(64);

function option(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
}

function collect(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('run with node --expose-gc');
  for (let n = 0; n < 3; n += 1) gc();
}

const seconds = (since: number): string => ((performance.now() - since) / 1000).toFixed(1);
const kb = (bytes: number, count: number): string => (bytes / count / 1024).toFixed(2);

async function build(count: number, dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  const store = await openStore(dir, { site: {}, portalSecret: SECRET });
  if (!store.ok) throw new Error(store.error);
  const site = new BenchSite({}, SIGNUP);
  site.state = store.value.state;
  site.product('gold');
  collect();
  const before = process.memoryUsage().heapUsed;
  let started = performance.now();
  let state: SiteState = site.state;
  const step = 100_000;
  for (let done = 0; done < count; done += step) {
    const first = done;
    state = applyInBatches(
      state,
      Math.min(step, count - done),
      (n) => ({ method: 'POST', path: '/subscriptions.json', body: signupBody('gold', first + n) }),
      SIGNUP,
    );
    console.log(`  ${done + Math.min(step, count - done)} subscriptions, ${seconds(started)} s`);
  }
  console.log(`built ${count} subscriptions in ${seconds(started)} s`);
  collect();
  const held = process.memoryUsage().heapUsed - before;
  console.log(`heap per subscription (built): ${kb(held, count)} KB (${(held / 2 ** 30).toFixed(2)} GiB)`);
  // The site was built beside the journal, not through it: its snapshot goes where the directory's
  // first one is (position 0, the journal after it empty), written as `serve` writes every full one.
  await store.value.close();
  started = performance.now();
  const bytes = await writeSnapshot(dir, { position: 0, state });
  console.log(`snapshot (${(bytes / 2 ** 20).toFixed(0)} MiB) written in ${seconds(started)} s`);
}

async function restart(dir: string, count: number): Promise<void> {
  collect();
  const before = process.memoryUsage().heapUsed;
  const started = performance.now();
  const store = await openStore(dir, { site: {}, portalSecret: SECRET });
  if (!store.ok) throw new Error(store.error);
  const elapsed = seconds(started);
  collect();
  const held = process.memoryUsage().heapUsed - before;
  console.log(`restart from disk (openStore) in ${elapsed} s`);
  console.log(`heap per subscription (restarted): ${kb(held, count)} KB`);
  console.log(`subscriptions loaded: ${store.value.state.tables.subscriptions.count}`);
  await store.value.close();
}

const count = Number(option('--count') ?? 1_000_000);
const dir = option('--dir') ?? '/tmp/million-site';
if (process.argv.includes('--restart')) await restart(dir, count);
else {
  await build(count, dir);
  const child = spawnSync(
    process.execPath,
    [...process.execArgv, process.argv[1] ?? '', '--restart', '--count', String(count), '--dir', dir],
    { stdio: 'inherit' },
  );
  if (child.status !== 0) throw new Error(`the restart exited with ${child.status}`);
}
