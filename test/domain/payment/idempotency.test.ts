import { describe, expect, test } from 'vitest';
import { attemptFor, attemptKeyedBy } from '../../../src/domain/payment/idempotency.js';
import { testGateway } from '../../../src/domain/payment/test-gateway.js';
import type { PaymentAttempt } from '../../../src/domain/payment/types.js';
import { profile } from './card-profile.js';

const fields = (): Omit<PaymentAttempt, 'idempotencyKey'> => ({
  kind: 'payment',
  amount: '49',
  currency: 'USD',
  paymentProfile: profile('1111'),
  customerId: 1,
  subscriptionId: 1,
  memo: 'Payment for invoice 1',
  at: '2026-01-01T00:00:00.000Z',
});

describe('an attempt keyed lazily', () => {
  test('derives its key only when read, once, and shows it like any field', () => {
    let derived = 0;
    const attempt = attemptKeyedBy(fields(), () => {
      derived += 1;
      return 'acme/inv_1/payment/1/abcd';
    });
    expect(derived).toBe(0);
    expect(attempt.idempotencyKey).toBe('acme/inv_1/payment/1/abcd');
    expect(attempt.idempotencyKey).toBe('acme/inv_1/payment/1/abcd');
    expect(derived).toBe(1);
    expect(JSON.parse(JSON.stringify(attempt)).idempotencyKey).toBe('acme/inv_1/payment/1/abcd');
    expect({ ...attempt }.idempotencyKey).toBe('acme/inv_1/payment/1/abcd');
  });
});

describe('an attempt made for its gateway', () => {
  const key = () => 'acme/inv_1/payment/1/abcd';

  test('for the test gateway: the same fields and key, the key derived once, the same outcome', () => {
    let derived = 0;
    const cheap = attemptFor(testGateway, fields(), () => {
      derived += 1;
      return key();
    });
    const literal = attemptKeyedBy(fields(), key);
    for (const name of [
      'kind',
      'amount',
      'currency',
      'paymentProfile',
      'customerId',
      'subscriptionId',
      'memo',
      'at',
    ] as const)
      expect(cheap[name]).toEqual(literal[name]);
    expect(derived).toBe(0);
    expect(cheap.idempotencyKey).toBe(literal.idempotencyKey);
    expect(cheap.idempotencyKey).toBe(key());
    expect(derived).toBe(1);
    expect(testGateway(cheap)).toEqual(testGateway(literal));
  });

  test("for any other gateway: attemptKeyedBy's literal, with the key an own, enumerable field", () => {
    const attempt = attemptFor((given) => testGateway(given), fields(), key);
    expect(Object.keys(attempt)).toEqual(Object.keys(attemptKeyedBy(fields(), key)));
    expect({ ...attempt }.idempotencyKey).toBe(key());
  });
});
