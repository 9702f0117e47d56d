/**
 * Law (CONTRACT 5, issue 25 item 1): the asynchronous path gives the same bytes as the synchronous one
 * for the same outcomes. Any command sequence is run twice in lockstep, once through `handle`/`advance`
 * with a gateway and once through `handleAsync`/`advanceAsync` with the same gateway answering through
 * promises (some at once, some after a timer, some rejecting). After every step, the states, answers,
 * events and changes agree to the byte, and the processor was asked about exactly the attempts the
 * synchronous gateway saw, in the same order, once each.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type AsyncPaymentGateway,
  advance,
  advanceAsync,
  createSite,
  handle,
  handleAsync,
  type PaymentAttempt,
  type PaymentGateway,
  type PaymentOutcome,
  type SiteState,
  testGateway,
} from '../../../src/index.js';
import {
  commandSequenceArbitrary,
  requestFor,
  SIMULATION_START,
  simulationConfig,
} from '../../../src/testing/index.js';

const SEED = 20_261_128;
const RUNS = 4;
const STEPS = 80;

/** What the processor does with an attempt, chosen by its key so both paths decide alike. */
type Verdict = 'test' | 'decline' | 'throw';

function verdictOf(attempt: PaymentAttempt, verdicts: readonly Verdict[]): Verdict {
  let hash = 0;
  for (const char of attempt.idempotencyKey) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return verdicts[hash % verdicts.length] ?? 'test';
}

function decide(attempt: PaymentAttempt, verdicts: readonly Verdict[]): PaymentOutcome {
  const verdict = verdictOf(attempt, verdicts);
  if (verdict === 'throw') throw new Error(`processor down for ${attempt.amount}`);
  if (verdict === 'decline') return { success: false, message: 'Do not honour' };
  return testGateway(attempt);
}

const addHours = (instant: string, hours: number): string =>
  new Date(Date.parse(instant) + hours * 3_600_000).toISOString();

describe('handleAsync and advanceAsync against handle and advance', () => {
  it(`law: the same outcomes give the same bytes, and each attempt is asked once (${RUNS} runs × ${STEPS} commands)`, async () => {
    let attempts = 0;
    await fc.assert(
      fc.asyncProperty(
        commandSequenceArbitrary({ minLength: STEPS, maxLength: STEPS }),
        fc.array(fc.constantFrom<Verdict>('test', 'test', 'decline', 'throw'), {
          minLength: 1,
          maxLength: 8,
        }),
        fc.array(fc.constantFrom('now', 'microtask', 'timer'), { minLength: 1, maxLength: 5 }),
        async (commands, verdicts, timings) => {
          const seenSync: string[] = [];
          const seenAsync: string[] = [];
          const gateway: PaymentGateway = (attempt) => {
            seenSync.push(attempt.idempotencyKey);
            return decide(attempt, verdicts);
          };
          let turn = 0;
          const processor: AsyncPaymentGateway = (attempt) => {
            seenAsync.push(attempt.idempotencyKey);
            const timing = timings[turn++ % timings.length];
            if (timing === 'now') return decide(attempt, verdicts);
            const answer = () => decide(attempt, verdicts);
            if (timing === 'microtask') return Promise.resolve().then(answer);
            return new Promise<PaymentOutcome>((resolve, reject) =>
              setTimeout(() => {
                try {
                  resolve(answer());
                } catch (error) {
                  reject(error);
                }
              }, 0),
            );
          };

          let sync: SiteState = createSite(simulationConfig());
          let asynchronous: SiteState = sync;
          let now = SIMULATION_START;
          for (const command of commands) {
            now = addHours(now, command.hours);
            seenSync.length = 0;
            seenAsync.length = 0;
            if (command.op === 'wait') {
              const a = advance(sync, { now, payments: gateway });
              const { payments: _payments, ...b } = await advanceAsync(asynchronous, {
                now,
                payments: processor,
              });
              expect(JSON.stringify(b)).toBe(JSON.stringify(a));
              sync = a.state;
              asynchronous = b.state;
            } else {
              const request = requestFor(sync, command);
              if (request === undefined) continue;
              const a = handle(sync, request, { now, payments: gateway });
              const { payments, ...b } = await handleAsync(asynchronous, request, {
                now,
                payments: processor,
              });
              expect(JSON.stringify(b)).toBe(JSON.stringify(a));
              expect(payments.map((each) => each.idempotencyKey)).toEqual(seenAsync);
              sync = a.state;
              asynchronous = b.state;
            }
            expect(seenAsync).toEqual([...new Set(seenSync)]);
            attempts += seenAsync.length;
          }
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
    // The runs made payments, so the law was tested on real attempts.
    expect(attempts).toBeGreaterThan(20);
  }, 60_000);
});
