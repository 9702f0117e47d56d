/**
 * `billing-core run scenario.json`: a site config and a list of requests, each at its own instant, run
 * through the engine. Every response is printed as one JSON line `{"step", "status", "body"}` (steps
 * are numbered from 0, as in the file). A step that answers 400 or more fails the run unless it says
 * `"expect": <that status>`; a step whose `expect` differs from its status fails it too.
 */

import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { handle } from '../api/handle.js';
import type { ApiRequest } from '../api/types.js';
import type { SiteConfig } from '../domain/site/config.js';
import { problemsOf } from '../domain/site/config-check.js';
import { createSite, type SiteState } from '../engine/state.js';
import type { CliIo } from './io.js';
import { type Checked, siteConfigSchema } from './site-config.js';

const stepSchema = z.strictObject({
  /** Free text to say what the step is for; ignored. */
  name: z.string().exactOptional(),
  now: z.string().min(1),
  method: z.string().min(1).max(16),
  path: z.string().min(1),
  query: z.record(z.string(), z.union([z.string(), z.array(z.string())])).exactOptional(),
  headers: z.record(z.string(), z.string()).exactOptional(),
  body: z.unknown().exactOptional(),
  expect: z.number().int().min(100).max(599).exactOptional(),
});

const scenarioSchema = z.strictObject({
  site: siteConfigSchema.exactOptional(),
  steps: z.array(stepSchema),
});

export type ScenarioStep = z.infer<typeof stepSchema>;

export interface Scenario {
  readonly site?: SiteConfig;
  readonly steps: readonly ScenarioStep[];
}

/** Checks a parsed JSON value as a scenario. */
export function parseScenario(value: unknown): Checked<Scenario> {
  const parsed = scenarioSchema.safeParse(value);
  if (!parsed.success)
    return { ok: false, error: z.prettifyError(parsed.error), problems: problemsOf(parsed.error) };
  const scenario: Scenario = parsed.data;
  return { ok: true, value: scenario };
}

/** One printed line of output. */
export interface StepOutcome {
  readonly step: number;
  readonly status: number;
  readonly body: unknown;
}

export interface ScenarioRun {
  /** 0 when every step answered as expected, 1 otherwise. */
  readonly exitCode: 0 | 1;
  readonly outcomes: readonly StepOutcome[];
  readonly state: SiteState;
}

function requestOf(step: ScenarioStep): ApiRequest {
  return {
    method: step.method,
    path: step.path,
    ...(step.query === undefined ? {} : { query: step.query }),
    ...(step.headers === undefined ? {} : { headers: step.headers }),
    ...(step.body === undefined ? {} : { body: step.body }),
  };
}

/** Why a step's answer fails the run, or undefined when it is as expected. */
export function stepFailure(step: ScenarioStep, status: number): string | undefined {
  if (step.expect !== undefined)
    return step.expect === status ? undefined : `answered ${status}, expected ${step.expect}`;
  return status >= 400 ? `answered ${status}` : undefined;
}

/** Runs every step (a failing step does not stop the run), printing each response as a JSON line. */
export function runScenario(scenario: Scenario, io: CliIo): ScenarioRun {
  let state = createSite(scenario.site ?? {});
  const outcomes: StepOutcome[] = [];
  let failed = false;
  scenario.steps.forEach((step, index) => {
    const result = handle(state, requestOf(step), { now: step.now });
    state = result.state;
    const outcome = { step: index, status: result.response.status, body: result.response.body ?? null };
    outcomes.push(outcome);
    io.stdout(JSON.stringify(outcome));
    const failure = stepFailure(step, outcome.status);
    if (failure !== undefined) {
      failed = true;
      io.stderr(`step ${index} (${step.method} ${step.path}): ${failure}`);
    }
  });
  return { exitCode: failed ? 1 : 0, outcomes, state };
}

/** `billing-core run FILE`: 0 when all steps pass, 1 when one fails, 2 when the file is unusable. */
export async function runScenarioFile(path: string, io: CliIo): Promise<number> {
  let source: string;
  try {
    source = await readFile(path, 'utf8');
  } catch (error) {
    io.stderr(`billing-core run: cannot read ${path}: ${error instanceof Error ? error.message : 'error'}`);
    return 2;
  }
  let json: unknown;
  try {
    json = JSON.parse(source);
  } catch (error) {
    io.stderr(`billing-core run: ${path} is not valid JSON (${error instanceof Error ? error.message : ''})`);
    return 2;
  }
  const scenario = parseScenario(json);
  if (!scenario.ok) {
    io.stderr(`billing-core run: ${path} is not a scenario:\n${scenario.error}`);
    return 2;
  }
  return runScenario(scenario.value, io).exitCode;
}
