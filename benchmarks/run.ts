/** Runs every `*.bench.ts` in this folder (or those named on the command line) and prints a table. */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type BenchModule, type BenchRow, formatRows } from './harness.js';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const smoke = args.includes('--smoke');
const only = args.filter((arg) => !arg.startsWith('--'));
const files = readdirSync(here)
  .filter((file) => file.endsWith('.bench.ts'))
  .filter((file) => only.length === 0 || only.some((name) => file.includes(name)))
  .sort();

const rows: BenchRow[] = [];
for (const file of files) {
  const module = (await import(pathToFileURL(join(here, file)).href)) as { default: BenchModule };
  const produced = await module.default({ smoke });
  for (const row of produced)
    console.log(
      `${row.name}: ${row.ms.toFixed(3)} ms${row.floorMs ? ` (${(row.ms / row.floorMs).toFixed(2)}x floor)` : ''}`,
    );
  rows.push(...produced);
}
console.log(`\n${formatRows(rows)}\n`);
