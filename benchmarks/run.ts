/**
 * Runs every `*.bench.ts` in this folder (or those whose names start with a word given on the command
 * line), each in a process of its own with the same node flags, and prints a table of them all.
 */
import { fork } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  type BenchModule,
  type BenchRow,
  countCollections,
  formatMs,
  formatRows,
  plainRow,
} from './harness.js';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const smoke = args.includes('--smoke');
const only = args.filter((arg) => !arg.startsWith('--'));
const MODULE = '--module=';
const moduleToRun = args.find((arg) => arg.startsWith(MODULE))?.slice(MODULE.length);
// `npm run bench` runs the compiled benchmarks (what users run is compiled JavaScript, and tsx wraps every
// function it defines in a naming helper that costs time in the hot paths); `tsx benchmarks/run.ts` still
// runs the sources, for profiling.
const suffix = fileURLToPath(import.meta.url).endsWith('.ts') ? '.bench.ts' : '.bench.js';
const files = readdirSync(here)
  .filter((file) => file.endsWith(suffix))
  // By the start of the file name: `invoice` is invoice.bench.ts, not adhoc-invoice.bench.ts as well.
  .filter((file) => only.length === 0 || only.some((name) => file.startsWith(name)))
  .sort();

/** Runs one benchmark file in this process, prints its rows as they come and answers them. */
async function runHere(file: string): Promise<BenchRow[]> {
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
  return produced.map(plainRow);
}

/**
 * Runs one benchmark file in a fresh process with this one's node flags and answers its rows. A file's
 * figures then do not depend on the ones before it: a benchmark that built a log of a million events
 * left a heap that slowed the reads measured after it by up to a factor of two.
 */
function runApart(file: string): Promise<BenchRow[]> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), [`${MODULE}${file}`, ...(smoke ? ['--smoke'] : [])]);
    let rows: BenchRow[] | undefined;
    child.on('message', (message) => {
      rows = message as BenchRow[];
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code === 0 && rows !== undefined) resolve(rows);
      else reject(new Error(`${file} ended with ${signal ?? `exit code ${code}`} before answering its rows`));
    });
  });
}

if (moduleToRun !== undefined) {
  const rows = await runHere(moduleToRun);
  await new Promise<void>((resolve, reject) =>
    process.send?.(rows, (error: Error | null) => (error ? reject(error) : resolve())),
  );
  process.disconnect?.();
} else {
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
  for (const file of files) rows.push(...(await runApart(file)));
  console.log(`\n${formatRows(rows)}\n`);
}
