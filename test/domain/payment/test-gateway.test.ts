import { describe, expect, test } from 'vitest';
import { testGateway } from '../../../src/domain/payment/test-gateway.js';
import type { PaymentAttempt } from '../../../src/domain/payment/types.js';
import { profile } from './card-profile.js';

const attempt = (lastFour: string, kind: PaymentAttempt['kind']): PaymentAttempt => ({
  kind,
  amount: '10',
  currency: 'USD',
  paymentProfile: profile(lastFour),
  customerId: 1,
  subscriptionId: null,
  memo: 'renewal',
  idempotencyKey: `acme/inv_1/attempt/1/profile/${lastFour}`,
  at: '2026-02-01T00:00:00.000Z',
});

const FORCED_FAILURE = { success: false, message: 'Bogus Gateway: Forced failure' };

describe('the test gateway (CONTRACT 5), by the last digit', () => {
  test('1 succeeds, with a transaction id naming the profile and the instant', () => {
    const outcome = { success: true, gatewayTransactionId: 'bogus_9_2026-02-01T00:00:00.000Z' };
    expect(testGateway(attempt('1111', 'payment'))).toEqual(outcome);
    expect(testGateway(attempt('1111', 'authorization'))).toEqual(outcome);
  });
  test('2 authorizes but fails every payment', () => {
    expect(testGateway(attempt('1112', 'authorization'))).toEqual({ success: true });
    expect(testGateway(attempt('1112', 'payment'))).toEqual(FORCED_FAILURE);
  });
  test('3 fails everything', () => {
    expect(testGateway(attempt('1113', 'authorization'))).toEqual(FORCED_FAILURE);
    expect(testGateway(attempt('1113', 'payment'))).toEqual(FORCED_FAILURE);
  });
  test('4 authorizes but its payments need 3-D Secure authentication', () => {
    expect(testGateway(attempt('4444', 'authorization'))).toEqual({ success: true });
    expect(testGateway(attempt('4444', 'payment'))).toEqual({
      success: false,
      requiresAction: true,
      message: 'Your card was declined. This transaction requires 3D secure authentication.',
    });
  });
  test('the last digit decides, not the first', () => {
    expect(testGateway(attempt('1000', 'payment'))).toEqual(FORCED_FAILURE);
    expect(testGateway(attempt('', 'payment'))).toEqual(FORCED_FAILURE);
  });
});
