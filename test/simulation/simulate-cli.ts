/**
 * `npm run simulate -- [--runs N] [--seed S] [--steps K] [--path P]`: deterministic simulations of the
 * engine, every invariant checked after every step. A failure prints its seed and path (which replay it
 * exactly) and the shrunk sequence of commands. Exit code 1 on a failure.
 */
import { parseArgs } from 'node:util';
import fc from 'fast-check';
import { describeRun, SimulationFailure, simulationProperty } from '../../src/testing/index.js';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '50' },
    seed: { type: 'string' },
    steps: { type: 'string', default: '200' },
    path: { type: 'string' },
  },
});

const runs = Number.parseInt(values.runs, 10);
const steps = Number.parseInt(values.steps, 10);
const seed =
  values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number.parseInt(values.seed, 10);
if (![runs, steps, seed].every(Number.isSafeInteger) || runs < 1 || steps < 1) {
  console.error('usage: npm run simulate -- [--runs N] [--seed S] [--steps K] [--path P]');
  process.exit(2);
}

console.log(
  `simulating ${runs} runs of ${steps} commands, seed ${seed}${values.path ? `, path ${values.path}` : ''}`,
);
const started = performance.now();
const details = fc.check(simulationProperty({ steps }), {
  numRuns: runs,
  seed,
  ...(values.path === undefined ? {} : { path: values.path }),
});
const seconds = ((performance.now() - started) / 1000).toFixed(1);

if (!details.failed) {
  console.log(
    `ok: ${details.numRuns} runs, ${details.numRuns * steps} commands, every invariant held (${seconds} s)`,
  );
  process.exit(0);
}
console.log(`FAILED after ${details.numRuns} runs (${seconds} s), shrunk ${details.numShrinks} times`);
console.log(`seed ${details.seed}, path ${details.counterexamplePath}`);
console.log(
  `replay: npm run simulate -- --seed ${details.seed} --path ${details.counterexamplePath} --steps ${steps} --runs 1`,
);
const error = details.errorInstance;
console.log(error instanceof SimulationFailure ? describeRun(error.run) : String(error));
process.exit(1);
