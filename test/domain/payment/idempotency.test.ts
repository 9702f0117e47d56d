import { describe, expect, test } from 'vitest';
import { attemptKeyedBy } from '../../../src/domain/payment/idempotency.js';
import { attemptFields } from './card-profile.js';

describe('an attempt keyed lazily', () => {
  test('derives its key only when read, once, and shows it like any field', () => {
    let derived = 0;
    const attempt = attemptKeyedBy(attemptFields(), () => {
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
    const first = attemptKeyedBy(attemptFields(), () => 'acme/inv_1/payment/1/abcd');
    const second = attemptKeyedBy({ ...attemptFields(), amount: '50' }, () => 'acme/inv_1/payment/2/ef01');
    expect(Object.keys(first)).toEqual([...Object.keys(attemptFields()), 'idempotencyKey']);
    expect(JSON.parse(JSON.stringify(second))).toEqual({
      ...attemptFields(),
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
