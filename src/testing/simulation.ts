/**
 * A deterministic simulation: commands run in order against a site, time moving by each command's
 * hours, every invariant checked after every step. The run keeps its event-sourced log (the changes each
 * step applied) so that it can be replayed onto an empty site.
 */

import { handle } from '../api/handle.js';
import type { ApiRequest } from '../api/types.js';
import type { PaymentGateway } from '../domain/payment/types.js';
import type { SiteConfig } from '../domain/site/config.js';
import { advance } from '../engine/advance.js';
import { applyChanges, type Change } from '../engine/changes.js';
import { createSite, type SiteState } from '../engine/state.js';
import { tableGet } from '../kernel/collection.js';
import { addSeconds, type Instant } from '../kernel/time.js';
import type { Command } from './commands.js';
import { checkInvoice, checkState } from './invariants.js';
import { checkLedger } from './ledger-invariants.js';
import { checkRefusal } from './refusal.js';
import { requestFor } from './requests.js';
import { checkBalances, checkGroups, checkTransitions } from './state-invariants.js';

/** What one command did. */
export interface SimulationStep {
  /** The command's index in the sequence. */
  readonly index: number;
  /** The command. */
  readonly command: Command;
  /** The instant it ran at. */
  readonly now: Instant;
  /** `request` went through `handle`, `advance` moved time, `skipped` had nothing to act on. */
  readonly kind: 'request' | 'advance' | 'skipped';
  /** The request it made, for a `request` step. */
  readonly request?: ApiRequest;
  /** The response's status, for a `request` step. */
  readonly status?: number;
  /** The changes the step applied, in order (empty for a rejected request). */
  readonly changes: readonly Change[];
}

/** A simulation run: the final state, every step, and the first failure. */
export interface SimulationResult {
  /** The site after the last step. */
  readonly state: SiteState;
  /** Every step, in order. */
  readonly steps: readonly SimulationStep[];
  /** The first step whose outcome broke an invariant, with the violations; null when none did. */
  readonly failure: {
    /** The index of the step. */
    readonly step: number;
    /** What the checks found, one text per violation. */
    readonly violations: readonly string[];
  } | null;
}

/** How `simulate` runs: the start instant, the checks after each step, and the payment gateway. */
export interface SimulationOptions {
  /** The instant of the first command (before its hours). */
  readonly start?: Instant;
  /**
   * The checks run after every step that changed the state, given the step's changes; by default
   * `checkStep`, which is `checkState` limited to the invoices the step wrote (the others cannot have
   * changed). The final state always gets the full `checkState`.
   */
  readonly check?: (state: SiteState, changes: readonly Change[]) => readonly string[];
  /** The gateway every request and advance uses (`context.payments`); the test gateway by default. */
  readonly payments?: PaymentGateway;
}

/** The instant a simulation starts at by default: 2026-01-15T12:00:00Z. */
export const SIMULATION_START: Instant = '2026-01-15T12:00:00.000Z';

/**
 * Every invariant that a step's changes can break: the invoices it wrote satisfy `checkInvoice`; balances,
 * groups and transitions hold over the whole site.
 * @example expect(checkStep(result.state, result.changes)).toEqual([])
 */
export function checkStep(state: SiteState, changes: readonly Change[]): string[] {
  const written = new Set<number>();
  for (const change of changes)
    if (change.type === 'put' && change.table === 'invoices') written.add(change.row.id);
  const violations: string[] = [];
  for (const id of written) {
    const invoice = tableGet(state.tables.invoices, id);
    if (invoice !== undefined) violations.push(...checkInvoice(invoice));
  }
  return [
    ...violations,
    ...checkBalances(state),
    ...checkLedger(state),
    ...checkGroups(state),
    ...checkTransitions(state),
  ];
}

/**
 * The invoices whose lines a step changed after they were issued. The event log reads an issued
 * invoice's lines from the invoice when it lists its `invoice_issued` record, so they must stay as issued.
 */
function issuedLinesChanged(before: SiteState, changes: readonly Change[]): string[] {
  const violations: string[] = [];
  for (const change of changes) {
    if (change.type !== 'put' || change.table !== 'invoices') continue;
    const old = tableGet(before.tables.invoices, change.row.id);
    if (old === undefined || old.status === 'draft' || old.lines === change.row.lines) continue;
    if (JSON.stringify(old.lines) !== JSON.stringify(change.row.lines))
      violations.push(`invoice ${old.id}: its lines changed after it was issued (${old.status})`);
  }
  return violations;
}

/**
 * What must hold of one request's answer whatever the state: no fault, and a refusal changes nothing but
 * what fell due by its instant (compared with `advance` only under the test gateway: a host's gateway may
 * not answer the same twice).
 */
function answerViolations(
  before: SiteState,
  result: ReturnType<typeof handle>,
  now: Instant,
  options: SimulationOptions,
): string[] {
  const violations: string[] = [];
  const { status } = result.response;
  if (status >= 500) violations.push(`answered ${status}`);
  if (result.fault !== undefined) violations.push(`an internal fault: ${result.fault.message}`);
  if (status >= 400) {
    if (options.payments === undefined) violations.push(...checkRefusal(before, result, now));
    else if (result.state !== before && result.state.clock !== now)
      violations.push('a refusal that caught up did not reach its instant');
  }
  return violations;
}

/**
 * Runs commands from an empty site of `config`, checking after every step; stops at the first step that
 * breaks an invariant.
 * @example const { failure } = simulate(simulationConfig(), fc.sample(commandSequenceArbitrary(), 1)[0]);
 */
export function simulate(
  config: SiteConfig,
  commands: readonly Command[],
  options: SimulationOptions = {},
): SimulationResult {
  const check = options.check ?? checkStep;
  let state = createSite(config);
  let now = options.start ?? SIMULATION_START;
  const steps: SimulationStep[] = [];
  for (const [index, command] of commands.entries()) {
    now = addSeconds(now, command.hours * 3600);
    const before = state;
    const request = command.op === 'wait' ? undefined : requestFor(state, command);
    let violations: string[] = [];
    let changes: readonly Change[] = [];
    if (command.op === 'wait') {
      const advanced = advance(state, context(now, options));
      state = advanced.state;
      changes = advanced.changes;
      steps.push({ index, command, now, kind: 'advance', changes });
    } else if (request === undefined) {
      steps.push({ index, command, now, kind: 'skipped', changes });
    } else {
      const result = handle(state, request, context(now, options));
      state = result.state;
      changes = result.changes;
      violations = answerViolations(before, result, now, options);
      steps.push({ index, command, now, kind: 'request', request, status: result.response.status, changes });
    }
    if (state !== before) violations.push(...check(state, changes), ...issuedLinesChanged(before, changes));
    if (violations.length > 0) return { state, steps, failure: { step: index, violations } };
  }
  const final = checkState(state);
  return {
    state,
    steps,
    failure: final.length === 0 ? null : { step: Math.max(0, steps.length - 1), violations: final },
  };
}

const context = (now: Instant, options: SimulationOptions): { now: Instant; payments?: PaymentGateway } =>
  options.payments === undefined ? { now } : { now, payments: options.payments };

/**
 * Replays a run's event-sourced log: its changes folded, in order, onto an empty site of `config`.
 * @example expect(replayChanges(config, run.steps)).toStrictEqual(run.state)
 */
export function replayChanges(config: SiteConfig, steps: readonly SimulationStep[]): SiteState {
  let state = createSite(config);
  for (const step of steps) state = applyChanges(state, step.changes);
  return state;
}

/**
 * Replays a run's accepted requests and time advances, each at its instant, onto an empty site (a
 * refused request that caught up on time counts as an advance to its instant).
 * @example expect(replayRequests(config, run.steps)).toStrictEqual(run.state)
 */
export function replayRequests(config: SiteConfig, steps: readonly SimulationStep[]): SiteState {
  let state = createSite(config);
  for (const step of steps) {
    if (step.kind === 'advance') state = advance(state, { now: step.now }).state;
    else if (step.kind === 'request' && step.request !== undefined && (step.status ?? 500) < 400)
      state = handle(state, step.request, { now: step.now }).state;
    // A refused request still performed what fell due by its instant.
    else if (step.kind === 'request' && step.changes.length > 0)
      state = advance(state, { now: step.now }).state;
  }
  return state;
}
