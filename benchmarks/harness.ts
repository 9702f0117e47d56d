/**
 * A small benchmark harness: each `*.bench.ts` module in this folder exports a default function that
 * builds its fixtures outside the timed code and returns rows of measurements, each with the floor it is
 * compared with (measured in the same run).
 */
import { type PerformanceEntry, PerformanceObserver, performance } from 'node:perf_hooks';

export interface BenchOptions {
  /** A short run for CI: smaller sizes, fewer repetitions. */
  readonly smoke: boolean;
}

export interface BenchRow {
  readonly name: string;
  /** Median time after a forced collection before each run. */
  readonly ms: number;
  /** The floor's time for the same work, when the case has one. */
  readonly floorMs?: number;
  /** What a host gets: the same work as consecutive runs, no forced collection, collections counted. */
  readonly host?: HostFigures;
  readonly note?: string;
}

/** Consecutive runs of a case (floor, case, floor, case, ... with no forced collection between). */
export interface HostFigures {
  /** Median time of the case's runs. */
  readonly ms: number;
  /** Median time of the floor's runs. */
  readonly floorMs: number;
  /** Collections that started during the case's runs, and their total pause, per run. */
  readonly collections: CollectionFigures;
}

/** Collections per run of a case and their pause per run (a `CollectionCount` once counted). */
export interface CollectionFigures {
  readonly perRunCount: number;
  readonly perRunPauseMs: number;
}

/** A row as plain data (its collections counted), to pass from the process that measured it. */
export function plainRow(row: BenchRow): BenchRow {
  if (row.host === undefined) return row;
  const { perRunCount, perRunPauseMs } = row.host.collections;
  return { ...row, host: { ...row.host, collections: { perRunCount, perRunPauseMs } } };
}

/** Garbage collections seen inside a set of time windows, filled in by `countCollections()`. */
export class CollectionCount {
  count = 0;
  pauseMs = 0;
  readonly windows: { readonly start: number; readonly end: number }[] = [];
  constructor(private readonly perRun: number) {}
  /** Collections per run of the case. */
  get perRunCount(): number {
    return this.count / this.perRun;
  }
  /** Pause per run of the case, ms. */
  get perRunPauseMs(): number {
    return this.pauseMs / this.perRun;
  }
  /** The same windows counted per `n` calls (a case that times a batch of `n` calls). */
  scaled(n: number): CollectionCount {
    const scaled = new CollectionCount(this.perRun * n);
    pending.push(scaled);
    scaled.windows.push(...this.windows);
    return scaled;
  }
}

// V8 reports collections to an observer asynchronously: the windows wait until the runner yields.
const seen: PerformanceEntry[] = [];
const pending: CollectionCount[] = [];
const observer = new PerformanceObserver((list) => {
  seen.push(...list.getEntries());
});
observer.observe({ entryTypes: ['gc'] });

/** Lets the collection entries arrive, then counts them into every window measured so far. */
export async function countCollections(): Promise<void> {
  // The entries come on a timer's turn of the loop, not on the next check phase.
  await new Promise((resolve) => setTimeout(resolve, 100));
  for (const count of pending.splice(0)) {
    for (const entry of seen) {
      if (count.windows.some((window) => entry.startTime >= window.start && entry.startTime < window.end)) {
        count.count += 1;
        count.pauseMs += entry.duration;
      }
    }
  }
  seen.length = 0;
}

export type BenchModule = (options: BenchOptions) => Promise<BenchRow[]> | BenchRow[];

/**
 * Median wall time in milliseconds of `fn` over `runs` runs after `warmup` runs. `gc()` runs between
 * measured runs when node was started with `--expose-gc`.
 */
export function measure(fn: () => unknown, runs = 5, warmup = 1): number {
  const collect = (globalThis as { gc?: () => void }).gc;
  for (let i = 0; i < warmup; i += 1) fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    collect?.();
    const start = performance.now();
    fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] ?? Number.NaN;
}

/** Milliseconds with three decimals, or three significant digits below one (a floor of 0.0004 ms). */
export const formatMs = (ms: number): string => (ms >= 1 ? ms.toFixed(3) : ms.toPrecision(3));

/**
 * Formats rows as a Markdown table: each case after a forced collection, then as a host gets it
 * (consecutive runs), with the collections per run that fell inside it and their pause.
 */
export function formatRows(rows: readonly BenchRow[]): string {
  const lines = [
    '| case | ms | floor ms | ratio | host ms | host floor ms | host ratio | GCs/run | GC ms/run | note |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---|',
  ];
  for (const row of rows) {
    const ratio = row.floorMs ? (row.ms / row.floorMs).toFixed(2) : '';
    const floor = row.floorMs === undefined ? '' : formatMs(row.floorMs);
    const host = row.host;
    const hostCells =
      host === undefined
        ? ['', '', '', '', '']
        : [
            formatMs(host.ms),
            formatMs(host.floorMs),
            host.floorMs > 0 ? (host.ms / host.floorMs).toFixed(2) : '',
            host.collections.perRunCount.toPrecision(2),
            formatMs(host.collections.perRunPauseMs),
          ];
    lines.push(
      `| ${row.name} | ${formatMs(row.ms)} | ${floor} | ${ratio} | ${hostCells.join(' | ')} | ${row.note ?? ''} |`,
    );
  }
  return lines.join('\n');
}

const median = (values: readonly number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/** A case measured both ways beside its floor (`measureAgainstFloor`). */
export interface Measured {
  readonly ms: number;
  readonly floorMs: number;
  readonly host: HostFigures & { readonly collections: CollectionCount };
}

/**
 * Medians of `subject` and `floor` measured in alternation (floor, subject, floor, subject, ...), so a
 * machine that gets busier or quieter during the run moves both alike and the ratio stays meaningful:
 * first with a forced collection before each run (the cost of the work itself), then as a host runs it,
 * consecutive runs with no forced collection, the collections that fall inside the subject's runs
 * counted (`countCollections`). Between the two, unmeasured runs let the last forced collection's
 * sweeping end (`SETTLE_MS`).
 */
export function measureAgainstFloor(
  subject: () => unknown,
  floor: () => unknown,
  runs: number,
  warmup: number,
): Measured {
  for (let round = 0; round < warmup; round += 1) {
    floor();
    subject();
  }
  const subjectTimes: number[] = [];
  const floorTimes: number[] = [];
  for (let round = 0; round < runs; round += 1) {
    floorTimes.push(measure(floor, 1, 0));
    subjectTimes.push(measure(subject, 1, 0));
  }
  settleAfterForcedCollections(subject, floor, median(subjectTimes) + median(floorTimes));
  const hostTimes: number[] = [];
  const hostFloorTimes: number[] = [];
  const collections = new CollectionCount(runs);
  pending.push(collections);
  for (let round = 0; round < runs; round += 1) {
    let start = performance.now();
    floor();
    hostFloorTimes.push(performance.now() - start);
    start = performance.now();
    subject();
    const end = performance.now();
    hostTimes.push(end - start);
    collections.windows.push({ start, end });
  }
  return {
    ms: median(subjectTimes),
    floorMs: median(floorTimes),
    host: { ms: median(hostTimes), floorMs: median(hostFloorTimes), collections },
  };
}

/**
 * How long consecutive unmeasured runs go on between the forced collections and the host's runs. After a
 * full collection of a large heap V8 sweeps it on a helper thread, which on a machine of two cores takes
 * one of them for a while: on a site of 100,000 subscriptions, reads took 8 to 15 times their steady cost
 * for the first 50 to 100 ms. A host does not force collections, so its requests do not follow one.
 */
const SETTLE_MS = 500;

/** Runs floor and subject in turn until about `SETTLE_MS` have passed (not at all for a slow case). */
function settleAfterForcedCollections(subject: () => unknown, floor: () => unknown, roundMs: number): void {
  const start = performance.now();
  while (performance.now() - start + roundMs < SETTLE_MS) {
    floor();
    subject();
  }
}

/** A case that timed a batch of `n` calls, per call. */
export function perCall(measured: Measured, n: number): Measured {
  return {
    ms: measured.ms / n,
    floorMs: measured.floorMs / n,
    host: {
      ms: measured.host.ms / n,
      floorMs: measured.host.floorMs / n,
      collections: measured.host.collections.scaled(n),
    },
  };
}

/** mulberry32: a small, fast, seeded PRNG (deterministic fixtures). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** `count` with thousands separators, for case names. */
export const label = (count: number): string => count.toLocaleString('en-US');
