/**
 * A host's gateway as the engine calls it: whatever it does, a payment attempt ends in an
 * outcome. A gateway that throws, answers a promise (an asynchronous gateway on the synchronous path) or
 * answers something that is not an outcome has refused the payment, with that reason; it never turns a
 * request into a refusal or a fault.
 */
import type { AsyncPaymentGateway, PaymentAttempt, PaymentGateway, PaymentOutcome } from './types.js';

function reasonOf(thrown: unknown): string {
  try {
    if (thrown instanceof Error) return String(thrown.message);
    return String(thrown);
  } catch {
    return 'unreadable error';
  }
}

/** What an answer says, as an outcome; `awaited` answers have been through `await` already. */
function outcomeOf(answer: unknown, awaited = false): PaymentOutcome {
  if (typeof answer !== 'object' || answer === null)
    return { success: false, message: 'Gateway error: no outcome' };
  if (!awaited && typeof Reflect.get(answer, 'then') === 'function')
    return { success: false, message: 'Gateway error: an asynchronous answer on the synchronous path' };
  const success: unknown = Reflect.get(answer, 'success');
  if (success === true) {
    const id: unknown = Reflect.get(answer, 'gatewayTransactionId');
    return typeof id === 'string' ? { success: true, gatewayTransactionId: id } : { success: true };
  }
  const message: unknown = Reflect.get(answer, 'message');
  const requiresAction = Reflect.get(answer, 'requiresAction') === true;
  return {
    success: false,
    message: typeof message === 'string' && message.length > 0 ? message : 'Declined',
    ...(requiresAction ? { requiresAction } : {}),
  };
}

/**
 * The gateway, made total: every call answers an outcome.
 * @example guardedGateway(() => { throw new Error('timeout'); })(attempt) // { success: false, message: 'Gateway error: timeout' }
 */
export function guardedGateway(gateway: PaymentGateway): PaymentGateway {
  return (attempt: PaymentAttempt): PaymentOutcome => {
    let answer: unknown;
    try {
      answer = gateway(attempt);
    } catch (thrown) {
      return { success: false, message: `Gateway error: ${reasonOf(thrown)}` };
    }
    try {
      return outcomeOf(answer);
    } catch (thrown) {
      return { success: false, message: `Gateway error: ${reasonOf(thrown)}` };
    }
  };
}

/**
 * One attempt put to an asynchronous gateway, made total: the promise always resolves to an outcome. A
 * throw or a rejection is a failed payment with its reason, worded as on the synchronous path.
 * @example await settleAttempt(async () => { throw new Error('timeout'); }, attempt) // { success: false, message: 'Gateway error: timeout' }
 */
export async function settleAttempt(
  gateway: AsyncPaymentGateway,
  attempt: PaymentAttempt,
): Promise<PaymentOutcome> {
  let answer: unknown;
  try {
    answer = await gateway(attempt);
  } catch (thrown) {
    return { success: false, message: `Gateway error: ${reasonOf(thrown)}` };
  }
  try {
    return outcomeOf(answer, true);
  } catch (thrown) {
    return { success: false, message: `Gateway error: ${reasonOf(thrown)}` };
  }
}
