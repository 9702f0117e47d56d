import { describe, expect, test } from 'vitest';
import { NEW_CATALOG_KEYS, PAYMENT_RELATED_KEYS, siteEventKey } from '../../../src/domain/event-log/keys.js';

describe('siteEventKey', () => {
  test('the new catalog experience renames three keys (SPEC 6)', () => {
    expect(siteEventKey('subscription_product_change', true)).toBe('subscription_plan_change');
    expect(siteEventKey('component_allocation_change', true)).toBe('allocation_change');
    expect(siteEventKey('component_billing_date_change', true)).toBe('product_billing_date_change');
    expect(NEW_CATALOG_KEYS.size).toBe(3);
  });
  test('other keys, and every key without the new catalog experience, are unchanged', () => {
    expect(siteEventKey('payment_success', true)).toBe('payment_success');
    expect(siteEventKey('component_allocation_change', false)).toBe('component_allocation_change');
    expect(siteEventKey('subscription_product_change', false)).toBe('subscription_product_change');
  });
  test('an already renamed key passes through', () => {
    expect(siteEventKey('allocation_change', true)).toBe('allocation_change');
  });
});

describe('PAYMENT_RELATED_KEYS', () => {
  test('names the payment outcomes of the official API', () => {
    expect([...PAYMENT_RELATED_KEYS].sort()).toEqual([
      'chargeback_accepted',
      'chargeback_closed',
      'chargeback_lost',
      'delayed_signup_creation_success',
      'payment_failure',
      'payment_success',
      'renewal_failure',
      'renewal_success',
      'signup_success',
    ]);
    expect(PAYMENT_RELATED_KEYS.has('subscription_state_change')).toBe(false);
  });
});
