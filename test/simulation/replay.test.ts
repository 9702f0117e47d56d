/**
 * Replay (issue 10 item 3): the event-sourced log of a simulated run (the changes `handle` and `advance`
 * return), applied to an empty site, yields the same state; so do the accepted requests and time
 * advances, replayed at their instants.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyChanges, type Change, createSite, handle } from '../../src/index.js';
import {
  commandSequenceArbitrary,
  replayChanges,
  replayRequests,
  type SimulationStep,
  simulate,
  simulationConfig,
} from '../../src/testing/index.js';

const SEEDS = [11, 12, 13];
const STEPS = 150;
const config = simulationConfig({ timeZone: 'America/New_York' });

const runs = new Map<number, ReturnType<typeof simulate>>();

/** The run of a seed, simulated once and shared by both laws. */
function run(seed: number) {
  const cached = runs.get(seed);
  if (cached !== undefined) return cached;
  const [commands] = fc.sample(commandSequenceArbitrary({ minLength: STEPS, maxLength: STEPS }), {
    seed,
    numRuns: 1,
  });
  if (commands === undefined) throw new Error('fast-check produced a sequence');
  const result = simulate(config, commands);
  expect(result.failure).toBeNull();
  runs.set(seed, result);
  return result;
}

describe('replay of a simulated run', () => {
  it.each(SEEDS)('law: the change log folded onto an empty site gives the same state (seed %i)', (seed) => {
    const result = run(seed);
    const changeCount = result.steps.reduce((count, step) => count + step.changes.length, 0);
    expect(changeCount).toBeGreaterThan(STEPS);
    expect(JSON.stringify(replayChanges(config, result.steps))).toBe(JSON.stringify(result.state));
    // The log is plain JSON: stored and read back, it replays the same.
    const stored = JSON.parse(JSON.stringify(result.steps)) as SimulationStep[];
    expect(replayChanges(config, stored)).toStrictEqual(JSON.parse(JSON.stringify(result.state)));
  });

  it.each(SEEDS)(
    'law: the accepted requests and advances, replayed at their instants, give the same state (seed %i)',
    (seed) => {
      const result = run(seed);
      expect(JSON.stringify(replayRequests(config, result.steps))).toBe(JSON.stringify(result.state));
    },
  );

  it('one call: applyChanges(input, result.changes) is the output state; a refusal has no changes', () => {
    let state = createSite(config);
    const now = '2026-01-15T12:00:00Z';
    const changed = handle(
      state,
      {
        method: 'POST',
        path: '/customers.json',
        body: { customer: { first_name: 'A', last_name: 'B', email: 'a@b.co' } },
      },
      { now },
    );
    expect(changed.response.status).toBe(201);
    expect(changed.changes.map((change: Change) => change.type)).toContain('put');
    expect(applyChanges(state, changed.changes)).toStrictEqual(changed.state);
    state = changed.state;
    const refused = handle(
      state,
      { method: 'POST', path: '/customers.json', body: { customer: {} } },
      { now },
    );
    expect(refused.response.status).toBe(422);
    expect(refused.state).toBe(state);
    expect(refused.changes).toEqual([]);
    const read = handle(state, { method: 'GET', path: '/customers.json' }, { now });
    expect(read.state).toBe(state);
    expect(read.changes).toEqual([]);
  });
});
