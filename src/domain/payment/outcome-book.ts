/**
 * The asynchronous payment path without an asynchronous engine. The engine decides
 * synchronously; a call whose decision needs a payment nobody has answered yet runs as passes. Each pass
 * answers the attempts already settled and notes the first unknown one. Then the host's processor is
 * asked about that attempt alone, and the pass runs again with the answer. Every pass runs on the same
 * state, so the attempts before the unknown one are the ones the final pass makes too. The processor is
 * therefore asked about exactly the attempts of the final pass, in their order, once each, and the final
 * pass is the synchronous path with those outcomes: the same state, answer and events to the byte.
 */

import { keepLayoutOf } from '../../kernel/kept-layouts.js';
import { settleAttempt } from './guarded-gateway.js';
import type {
  AsyncPaymentGateway,
  PaymentAttempt,
  PaymentGateway,
  PaymentOutcome,
  SettledPayment,
} from './types.js';

/** A pass's answer to an attempt that has no outcome yet. The pass is thrown away, so it is never seen. */
const UNSETTLED: PaymentOutcome = { success: false, message: 'Awaiting the payment processor' };

/** One pass of the engine over the outcomes known so far. */
export interface PaymentPass {
  readonly gateway: PaymentGateway;
  /** The first attempt of the pass that had no outcome, if any: the pass must then be run again. */
  readonly pending: () => PaymentAttempt | undefined;
}

/** The outcomes a call has learnt from the host's processor, in the order they were asked for. */
export class OutcomeBook {
  private readonly known = new Map<string, PaymentOutcome>();
  private readonly asked: SettledPayment[] = [];

  constructor(private readonly processor: AsyncPaymentGateway) {}

  /** A synchronous gateway for one pass: known attempts answer their outcome, the first unknown is noted. */
  pass(): PaymentPass {
    let pending: PaymentAttempt | undefined;
    const gateway: PaymentGateway = (attempt) => {
      const outcome = this.known.get(attempt.idempotencyKey);
      if (outcome !== undefined) return outcome;
      pending ??= attempt;
      return UNSETTLED;
    };
    return { gateway, pending: () => pending };
  }

  /** Asks the processor about one attempt; a throw or a rejection is a failure with its reason. */
  async settle(attempt: PaymentAttempt): Promise<void> {
    const outcome = await settleAttempt(this.processor, attempt);
    this.known.set(attempt.idempotencyKey, outcome);
    this.asked.push({ idempotencyKey: attempt.idempotencyKey, outcome });
  }

  /** Every outcome the processor gave, in order: what a journal keeps to replay the call. */
  settled(): readonly SettledPayment[] {
    return [...this.asked];
  }
}

/**
 * A gateway that answers from outcomes recorded earlier (a journal replayed after a restart), so that a
 * replay gives the state the processor's real answers gave. An attempt with no record has not been put
 * to the processor, and is refused rather than guessed.
 * @example recordedGateway([{ idempotencyKey: 'acme/inv_1/payment/1/ab12', outcome: { success: true } }])
 */
export function recordedGateway(settled: readonly SettledPayment[]): PaymentGateway {
  const known = new Map(settled.map((payment) => [payment.idempotencyKey, payment.outcome]));
  return (attempt) =>
    known.get(attempt.idempotencyKey) ?? {
      success: false,
      message: 'Gateway error: no recorded outcome for this attempt',
    };
}

// Full collections must not take this class's hidden class away between requests (kept-layouts.ts).
keepLayoutOf(new OutcomeBook(() => UNSETTLED));
