import { describe, expect, test } from 'vitest';
import { attemptKeyedBy } from '../../../src/domain/payment/idempotency.js';
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

  test('shows its fields in their order, the key last, with one accessor shared by every attempt', () => {
    const first = attemptKeyedBy(fields(), () => 'acme/inv_1/payment/1/abcd');
    const second = attemptKeyedBy({ ...fields(), amount: '50' }, () => 'acme/inv_1/payment/2/ef01');
    expect(Object.keys(first)).toEqual([...Object.keys(fields()), 'idempotencyKey']);
    expect(JSON.parse(JSON.stringify(second))).toEqual({
      ...fields(),
      amount: '50',
      idempotencyKey: 'acme/inv_1/payment/2/ef01',
    });
    const accessor = (attempt: object) => Object.getOwnPropertyDescriptor(attempt, 'idempotencyKey');
    expect(accessor(first)).toMatchObject({ enumerable: true, configurable: true });
    // One getter for all: a getter per attempt gives each its own hidden class, which keeps alive
    // whatever the key's derivation closes over (a request's whole state) until a full collection.
    expect(accessor(first)?.get).toBe(accessor(second)?.get);
    expect(second.idempotencyKey).toBe('acme/inv_1/payment/2/ef01');
  });
});
