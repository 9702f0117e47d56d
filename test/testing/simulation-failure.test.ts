/**
 * A failing simulation reads in a glance (issue 25 item 7): fast-check's report, with the shrunk steps
 * and the violations, stays under 5 KB, and the site state never reaches a test reporter.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SimulationFailure, simulationProperty } from '../../src/testing/index.js';

function failureOf(run: () => void): Error {
  try {
    run();
  } catch (error) {
    if (error instanceof Error) return error;
    throw error;
  }
  throw new Error('the property did not fail');
}

describe('a failing simulation', () => {
  it('is reported in under 5 KB, shrunk, with its violations and without the site state', () => {
    // Every step that changes the site breaks a (made-up) invariant with a long message.
    const failing = simulationProperty({
      check: (state) => [
        `invariant broken at ${state.clock}: ${'x'.repeat(20_000)}`,
        ...Array(200).fill('and again'),
      ],
    });
    const error = failureOf(() => fc.assert(failing, { seed: 7, numRuns: 3 }));
    const cause = error.cause;
    expect(cause).toBeInstanceOf(SimulationFailure);
    if (!(cause instanceof SimulationFailure)) return;
    // What a reporter prints: fast-check's report (seed, path, the shrunk commands), then the run.
    const report = `${error.message}\n${cause.message}`;
    expect(report.length).toBeLessThan(5_000);
    expect(error.message).toMatch(/Counterexample: \[\d+ commands, \d+ doing something:/);
    expect(cause.message).toContain('violations:\ninvariant broken at');
    expect(cause.message).toMatch(/more violations left out/);
    expect(report).not.toContain('"tables"');

    // Kept for a debugger, hidden from reporters that print an error's own enumerable properties.
    expect(cause.run.failure).not.toBeNull();
    expect(Object.keys(cause)).not.toContain('run');
    expect(JSON.stringify(cause).length).toBeLessThan(5_000);
  });
});
