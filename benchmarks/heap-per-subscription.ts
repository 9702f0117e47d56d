/**
 * Heap per subscription: builds sites of two sizes through the batched builder (the engine's own routes
 * and `applyChanges`, one signup invoice per subscription), collects garbage and reports the heap the
 * larger site holds beyond the smaller one, divided by the difference in subscriptions, so that fixed
 * costs (code, catalog, empty tables) cancel. With `--snapshot FILE` it also writes a heap snapshot of
 * the larger site for `heap-breakdown.ts`.
 *
 * Run: node --expose-gc --max-old-space-size=8192 --import tsx benchmarks/heap-per-subscription.ts
 *        [--small 10000] [--large 50000] [--snapshot /tmp/site.heapsnapshot]
 */
import { writeHeapSnapshot } from 'node:v8';
import type { SiteState } from '../src/index.js';
import { signedUpSite } from './bench-site.js';

const SIGNUP = '2026-01-15T12:00:00Z';

function collect(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('run with node --expose-gc');
  for (let n = 0; n < 4; n += 1) gc();
}

/** Heap in use (bytes) while `state` is the only large thing alive. */
export function heapHolding(build: () => SiteState): { heap: number; state: SiteState } {
  collect();
  const before = process.memoryUsage().heapUsed;
  const state = build();
  collect();
  return { heap: process.memoryUsage().heapUsed - before, state };
}

/** Bytes of heap per subscription between sites of `small` and `large` subscriptions. */
export function heapPerSubscription(
  small: number,
  large: number,
): { perSubscription: number; largeState: SiteState } {
  const a = heapHolding(() => signedUpSite(small, SIGNUP));
  const smallHeap = a.heap;
  a.state = undefined as unknown as SiteState;
  const b = heapHolding(() => signedUpSite(large, SIGNUP));
  return { perSubscription: (b.heap - smallHeap) / (large - small), largeState: b.state };
}

function option(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
}

if (
  process.argv[1]?.endsWith('heap-per-subscription.ts') ||
  process.argv[1]?.endsWith('heap-per-subscription.js')
) {
  const small = Number(option('--small') ?? 10_000);
  const large = Number(option('--large') ?? 50_000);
  const started = performance.now();
  const { perSubscription, largeState } = heapPerSubscription(small, large);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `heap per subscription (${small} → ${large}): ${(perSubscription / 1024).toFixed(2)} KB (${Math.round(perSubscription)} bytes), built in ${seconds} s`,
  );
  const snapshot = option('--snapshot');
  if (snapshot !== undefined) {
    collect();
    writeHeapSnapshot(snapshot);
    console.log(`snapshot written to ${snapshot} (${largeState.clock})`);
  }
}
