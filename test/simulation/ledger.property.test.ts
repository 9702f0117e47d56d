/**
 * Money conservation (CONTRACT 5a, issue 20 item 4): any command sequence, with time advances and a
 * gateway that refuses payments at random, keeps the books balanced and in agreement with the rows after
 * every step (`checkLedger` runs inside `checkStep`), and at the end.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { testGateway } from '../../src/domain/payment/test-gateway.js';
import type { PaymentAttempt, PaymentGateway, PaymentOutcome } from '../../src/index.js';
import {
  checkLedger,
  commandSequenceArbitrary,
  SimulationFailure,
  simulate,
  simulationConfig,
} from '../../src/testing/index.js';

const SEED = 20_261_125;
const RUNS = 5;
const STEPS = 150;

/** The test gateway, except that a payment it would take is refused whenever the next coin says so. */
function flakyGateway(coins: readonly boolean[]): { gateway: PaymentGateway; refused: () => number } {
  let next = 0;
  let refusedCount = 0;
  const gateway = (attempt: PaymentAttempt): PaymentOutcome => {
    const outcome = testGateway(attempt);
    if (attempt.kind !== 'payment' || !outcome.success) return outcome;
    const refuse = coins[next % coins.length] === true;
    next += 1;
    if (!refuse) return outcome;
    refusedCount += 1;
    return { success: false, message: 'Declined by the flaky gateway' };
  };
  return { gateway, refused: () => refusedCount };
}

describe('the books under any sequence of requests', () => {
  it(`law: checkLedger is empty after every step, with a gateway that fails at random (${RUNS} runs × ${STEPS} commands)`, () => {
    let refusals = 0;
    let transfers = 0;
    fc.assert(
      fc.property(
        // Refunds too: every money movement keeps the books.
        commandSequenceArbitrary({ minLength: STEPS, maxLength: STEPS, weights: { refund_invoice: 2 } }),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 16 }),
        (commands, coins) => {
          const { gateway, refused } = flakyGateway(coins);
          const run = simulate(simulationConfig(), commands, { payments: gateway });
          if (run.failure !== null) throw new SimulationFailure(run);
          expect(checkLedger(run.state)).toEqual([]);
          refusals += refused();
          transfers += run.state.ledger.length;
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
    // The runs moved money and met refusals, so the law was tested on real books.
    expect(transfers).toBeGreaterThan(100);
    expect(refusals).toBeGreaterThan(0);
  });
});
