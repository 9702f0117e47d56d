/**
 * Runs every `*.bench.ts` in this folder (or those whose names start with a word given on the command
 * line) and prints a table.
 */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type BenchModule, type BenchRow, countCollections, formatMs, formatRows } from './harness.js';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const smoke = args.includes('--smoke');
const only = args.filter((arg) => !arg.startsWith('--'));
// `npm run bench` runs the compiled benchmarks (what users run is compiled JavaScript, and tsx wraps every
// function it defines in a naming helper that costs time in the hot paths); `tsx benchmarks/run.ts` still
// runs the sources, for profiling.
const suffix = fileURLToPath(import.meta.url).endsWith('.ts') ? '.bench.ts' : '.bench.js';
const files = readdirSync(here)
  .filter((file) => file.endsWith(suffix))
  // By the start of the file name: `invoice` is invoice.bench.ts, not adhoc-invoice.bench.ts as well.
  .filter((file) => only.length === 0 || only.some((name) => file.startsWith(name)))
  .sort();

// A host of a large site runs node as README advises (allocation-site pretenuring off, young generation of
// 64 MB); say which way these figures were taken.
const nodeFlags = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(' ')];
const pretenuringOff = nodeFlags.includes('--no-allocation-site-pretenuring');
const semiSpace = nodeFlags.find((flag) => flag.startsWith('--max-semi-space-size='))?.split('=')[1];
const pretenuring = pretenuringOff ? 'off, as README advises hosts' : 'on (node default)';
const youngGeneration =
  semiSpace === undefined
    ? 'node default'
    : semiSpace === '64'
      ? '64 MB, as README advises hosts'
      : `${semiSpace} MB`;
console.log(`V8 allocation-site pretenuring: ${pretenuring}; semi-space: ${youngGeneration}`);

const rows: BenchRow[] = [];
for (const file of files) {
  const module = (await import(pathToFileURL(join(here, file)).href)) as { default: BenchModule };
  const produced = await module.default({ smoke });
  await countCollections();
  for (const row of produced) {
    const ratio = row.floorMs ? ` (${(row.ms / row.floorMs).toFixed(2)}x floor)` : '';
    const host = row.host
      ? `; as a host: ${formatMs(row.host.ms)} ms (${(row.host.ms / row.host.floorMs).toFixed(2)}x floor, ` +
        `${row.host.collections.perRunCount.toPrecision(2)} GCs per run)`
      : '';
    console.log(`${row.name}: ${formatMs(row.ms)} ms${ratio}${host}`);
  }
  rows.push(...produced);
}
console.log(`\n${formatRows(rows)}\n`);
