/**
 * The simulation as a fast-check property: a failing run is reported with fast-check's `seed` and
 * `path`, so it replays exactly (`fc.assert(property, { seed, path })`), and shrinks to the few commands
 * that matter (the others shrink to no-op waits).
 */
import fc from 'fast-check';
import type { SiteConfig } from '../domain/site/config.js';
import { type Command, commandSequenceArbitrary, isNoOp } from './commands.js';
import { simulationConfig } from './requests.js';
import { type SimulationOptions, type SimulationResult, simulate } from './simulation.js';

/** How `simulationProperty` runs: the site, the commands per run and the checks. */
export interface SimulationPropertyOptions {
  /** The site configuration (`simulationConfig()` by default). */
  readonly config?: SiteConfig;
  /** Commands per run after the seed catalog (200 by default). */
  readonly steps?: number;
  /** The checks after every step that changed the state (`checkStep` by default). */
  readonly check?: SimulationOptions['check'];
}

/**
 * A simulation failed: the message is the run in brief (`describeRun`, under 5 KB); the run itself, with
 * the whole site state, is kept for a debugger but not enumerable, so test reporters do not print it.
 */
export class SimulationFailure extends Error {
  /** The failed run: its steps, the final state and the failure (not enumerable). */
  declare readonly run: SimulationResult;
  constructor(run: SimulationResult) {
    super(describeRun(run));
    this.name = 'SimulationFailure';
    Object.defineProperty(this, 'run', { value: run, enumerable: false });
  }
}

/** The most a run's description takes, so a failure report stays readable (and under 5 KB). */
const DESCRIPTION_BUDGET = 3_000;
const COUNTEREXAMPLE_BUDGET = 1_200;
const LINE_BUDGET = 400;

const clip = (text: string, budget: number): string =>
  text.length <= budget ? text : `${text.slice(0, budget - 1)}…`;

/**
 * The property "every invariant holds after every step" over sequences of `steps` commands.
 * @example fc.assert(simulationProperty({ steps: 100 }), { numRuns: 5, seed: 42 })
 */
export function simulationProperty(
  options: SimulationPropertyOptions = {},
): fc.IPropertyWithHooks<[Command[]]> {
  const config = options.config ?? simulationConfig();
  const steps = options.steps ?? 200;
  const arbitrary = commandSequenceArbitrary({ minLength: steps, maxLength: steps }).map(printedBriefly);
  return fc.property(arbitrary, (commands) => {
    const run = simulate(config, commands, options.check === undefined ? {} : { check: options.check });
    if (run.failure !== null) throw new SimulationFailure(run);
  });
}

/**
 * The commands, printed in brief when fast-check reports them as a counterexample: only those that do
 * something, clipped (the seed and path in the report replay the run exactly, whatever is printed).
 */
function printedBriefly(commands: Command[]): Command[] {
  Object.defineProperty(commands, fc.toStringMethod, {
    enumerable: false,
    value: () => {
      const acting = commands.flatMap((command, index) =>
        isNoOp(command) ? [] : [`#${index} ${JSON.stringify(command)}`],
      );
      const listed = withinBudget(acting, COUNTEREXAMPLE_BUDGET, 'more commands');
      return `${commands.length} commands, ${acting.length} doing something:\n${listed.join('\n')}`;
    },
  });
  return commands;
}

/**
 * A run as text: the commands up to the failure that did something (no-op waits left out), each with its
 * instant, request and status, then the violations.
 * @example describeRun(simulate(config, commands))
 */
export function describeRun(run: SimulationResult): string {
  const last = run.failure?.step ?? run.steps.length - 1;
  const lines = run.steps
    .filter((step) => step.index <= last && !isNoOp(step.command))
    .map((step) => {
      const what =
        step.kind === 'request' && step.request !== undefined
          ? `${step.request.method} ${step.request.path} ${JSON.stringify(step.request.body ?? null)} → ${step.status}`
          : step.kind;
      return clip(`#${step.index} ${step.now} ${JSON.stringify(step.command)}\n    ${what}`, LINE_BUDGET);
    });
  const violations = (run.failure === null ? ['none'] : run.failure.violations).map((text) =>
    clip(text, LINE_BUDGET),
  );
  // The violations and the steps nearest the failure matter most: earlier steps go first when over budget.
  const shownViolations = withinBudget(violations, DESCRIPTION_BUDGET / 2, 'more violations');
  const used = shownViolations.reduce((sum, line) => sum + line.length + 1, 0);
  const shownSteps = withinBudget([...lines].reverse(), DESCRIPTION_BUDGET - used, 'earlier steps').reverse();
  return [
    `steps (${lines.length} that did something):`,
    ...shownSteps,
    'violations:',
    ...shownViolations,
  ].join('\n');
}

/** As many of `lines` as fit in `budget` characters, in order, then a line saying how many were left out. */
function withinBudget(lines: readonly string[], budget: number, what: string): string[] {
  const kept: string[] = [];
  let used = 0;
  for (const line of lines) {
    if (used + line.length + 1 > budget) {
      kept.push(`… ${lines.length - kept.length} ${what} left out`);
      return kept;
    }
    kept.push(line);
    used += line.length + 1;
  }
  return kept;
}
