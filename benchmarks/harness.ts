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

/** Formats rows as a Markdown table. */
export function formatRows(rows: readonly BenchRow[]): string {
  const lines = ['| case | ms | floor ms | ratio | note |', '|---|---:|---:|---:|---|'];
  for (const row of rows) {
    const ratio = row.floorMs ? (row.ms / row.floorMs).toFixed(2) : '';
    lines.push(
      `| ${row.name} | ${row.ms.toFixed(3)} | ${row.floorMs?.toFixed(3) ?? ''} | ${ratio} | ${row.note ?? ''} |`,
    );
  }
  return lines.join('\n');
}
