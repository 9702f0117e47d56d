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

/** A simulation failed: the run, for reporting. */
export class SimulationFailure extends Error {
  /** The failed run: its steps, the final state and the failure. */
  readonly run: SimulationResult;
  constructor(run: SimulationResult) {
    super(describeRun(run));
    this.name = 'SimulationFailure';
    this.run = run;
  }
}

/**
 * The property "every invariant holds after every step" over sequences of `steps` commands.
 * @example fc.assert(simulationProperty({ steps: 100 }), { numRuns: 5, seed: 42 })
 */
export function simulationProperty(
  options: SimulationPropertyOptions = {},
): fc.IPropertyWithHooks<[Command[]]> {
  const config = options.config ?? simulationConfig();
  const steps = options.steps ?? 200;
  const arbitrary = commandSequenceArbitrary({ minLength: steps, maxLength: steps });
  return fc.property(arbitrary, (commands) => {
    const run = simulate(config, commands, options.check === undefined ? {} : { check: options.check });
    if (run.failure !== null) throw new SimulationFailure(run);
  });
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
      return `#${step.index} ${step.now} ${JSON.stringify(step.command)}\n    ${what}`;
    });
  const violations = run.failure === null ? ['none'] : run.failure.violations;
  return [`steps (${lines.length} that did something):`, ...lines, 'violations:', ...violations].join('\n');
}
