/**
 * The test gateway, decided from the card's last digit: 1 succeeds; 2 authorizes
 * but every payment fails; 3 fails everything. 4 is this engine's card that needs 3-D Secure
 * authentication for payments. A refund goes through as a payment would (a card that never paid has
 * nothing to refund). Bank accounts follow the last digit of the account number the same way.
 */
import type { PaymentAttempt, PaymentOutcome } from './types.js';

/**
 * Decides a payment attempt with the test gateway.
 * @example testGateway({ kind: 'payment', paymentProfile: { lastFour: '1111', ... }, ... }) // { success: true }
 */
export function testGateway(attempt: PaymentAttempt): PaymentOutcome {
  const lastDigit = attempt.paymentProfile.lastFour.at(-1);
  switch (lastDigit) {
    case '1':
      return { success: true, gatewayTransactionId: `bogus_${attempt.paymentProfile.id}_${attempt.at}` };
    case '2':
      return attempt.kind === 'authorization'
        ? { success: true }
        : { success: false, message: 'Bogus Gateway: Forced failure' };
    case '4':
      return attempt.kind === 'authorization'
        ? { success: true }
        : {
            success: false,
            requiresAction: true,
            message: 'Your card was declined. This transaction requires 3D secure authentication.',
          };
    default:
      return { success: false, message: 'Bogus Gateway: Forced failure' };
  }
}
