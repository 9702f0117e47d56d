/**
 * A small benchmark harness: each `*.bench.ts` module in this folder exports a default function that
 * builds its fixtures outside the timed code and returns rows of measurements, each with the floor it is
 * compared with (measured in the same run).
 */
import { performance } from 'node:perf_hooks';

export interface BenchOptions {
  /** A short run for CI: smaller sizes, fewer repetitions. */
  readonly smoke: boolean;
}

export interface BenchRow {
  readonly name: string;
  readonly ms: number;
  /** The floor's time for the same work, when the case has one. */
  readonly floorMs?: number;
  readonly note?: string;
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

/** Formats rows as a Markdown table. */
export function formatRows(rows: readonly BenchRow[]): string {
  const lines = ['| case | ms | floor ms | ratio | note |', '|---|---:|---:|---:|---|'];
  for (const row of rows) {
    const ratio = row.floorMs ? (row.ms / row.floorMs).toFixed(2) : '';
    const floor = row.floorMs === undefined ? '' : formatMs(row.floorMs);
    lines.push(`| ${row.name} | ${formatMs(row.ms)} | ${floor} | ${ratio} | ${row.note ?? ''} |`);
  }
  return lines.join('\n');
}

const median = (values: readonly number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/**
 * Medians of `subject` and `floor` measured in alternation (floor, subject, floor, subject, ...), so a
 * machine that gets busier or quieter during the run moves both alike and the ratio stays meaningful.
 */
export function measureAgainstFloor(
  subject: () => unknown,
  floor: () => unknown,
  runs: number,
  warmup: number,
): { readonly ms: number; readonly floorMs: number } {
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
  return { ms: median(subjectTimes), floorMs: median(floorTimes) };
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
