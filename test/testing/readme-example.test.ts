/** The README's ten-line property test of `billing-core/testing`, run as written. */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { createSite, handle } from '../../src/index.js';
import {
  checkState,
  commandSequenceArbitrary,
  requestFor,
  simulationConfig,
} from '../../src/testing/index.js';

test('no sequence of requests breaks an invariant', () => {
  fc.assert(
    fc.property(commandSequenceArbitrary({ maxLength: 50 }), (commands) => {
      let state = createSite(simulationConfig());
      for (const command of commands) {
        const request = requestFor(state, command);
        if (request) state = handle(state, request, { now: '2026-03-10T12:00:00Z' }).state;
        expect(checkState(state)).toEqual([]);
      }
    }),
    { numRuns: 20 },
  );
});
