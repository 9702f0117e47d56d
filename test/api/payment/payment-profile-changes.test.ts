/**
 * Changing payment profiles: update (billing details kept or changed, a new number verified with the
 * gateway), change a subscription's default, delete from a subscription or a group (removed from all
 * that use it), verify a bank account.
 */
import { describe, expect, it } from 'vitest';
import { checkState } from '../../../src/testing/index.js';
import { card, get, num, site, str } from '../../helpers/api.js';

const START = '2026-01-10T12:00:00Z';

describe('payment profile changes', () => {
  it('updates billing details and expiry without touching the number; a new number is verified', () => {
    const s = site({}, START);
    const customer = s.customer();
    const profile = s.card(customer);
    const updated = get(
      s.ok('PUT', `/payment_profiles/${profile}.json`, {
        payment_profile: { first_name: 'Kelly', billing_city: 'Boulder', expiration_month: '7' },
      }),
      'payment_profile',
    );
    expect(str(updated, 'first_name')).toBe('Kelly');
    expect(str(updated, 'billing_city')).toBe('Boulder');
    expect(num(updated, 'expiration_month')).toBe(7);
    expect(str(updated, 'masked_card_number')).toBe('XXXX-XXXX-XXXX-1111');
    const renumbered = s.ok('PUT', `/payment_profiles/${profile}.json`, {
      payment_profile: { full_number: card(2) },
    });
    expect(str(renumbered, 'payment_profile', 'masked_card_number')).toBe('XXXX-XXXX-XXXX-1112');
    s.fail('PUT', `/payment_profiles/${profile}.json`, { payment_profile: { full_number: card(3) } }, 422);
    s.fail(
      'PUT',
      `/payment_profiles/${profile}.json`,
      { payment_profile: { bank_account_number: '1234' } },
      422,
    );
    s.fail('PUT', '/payment_profiles/999.json', { payment_profile: {} }, 404);
  });

  it("changes a subscription's default profile, only to one of its customer's", () => {
    const s = site({}, START);
    const product = s.product();
    const { id, customer } = s.subscribed(product);
    const second = s.card(customer, 2);
    const called = s.request(
      'POST',
      `/subscriptions/${id}/payment_profiles/${second}/change_payment_profile.json`,
    );
    expect(called.status).toBe(200);
    expect(num(called.body, 'payment_profile', 'id')).toBe(second);
    expect(called.events.map((event) => event.key)).toEqual(['subscription_card_update']);
    expect(num(s.subscription(id), 'credit_card', 'id')).toBe(second);
    const stranger = s.card(s.customer());
    s.fail(
      'POST',
      `/subscriptions/${id}/payment_profiles/${stranger}/change_payment_profile.json`,
      undefined,
      422,
    );
  });

  it('deletes a profile from a subscription: every subscription of the customer loses it', () => {
    const s = site({}, START);
    const product = s.product();
    const { id, customer, profile } = s.subscribed(product);
    const other = num(
      s.subscribe({ product_id: product, customer_id: customer, payment_profile_id: profile }),
      'subscription',
      'id',
    );
    expect(
      s.ok('DELETE', `/subscriptions/${id}/payment_profiles/${profile}.json`, undefined, 204),
    ).toBeUndefined();
    expect(get(s.subscription(id), 'credit_card')).toBeUndefined();
    expect(get(s.subscription(other), 'payment_type')).toBeNull();
    s.fail('GET', `/payment_profiles/${profile}.json`, undefined, 404);
    s.fail('DELETE', `/subscriptions/${id}/payment_profiles/${profile}.json`, undefined, 404);
    expect(checkState(s.state)).toEqual([]);
  });

  it("deletes a group's profile", () => {
    const s = site({}, START);
    const product = s.product();
    const { id, profile } = s.subscribed(product);
    s.ok('POST', '/subscription_groups.json', {
      subscription_group: { subscription_id: id, member_ids: [] },
    });
    const uid = str(s.ok('GET', `/subscription_groups/lookup.json?subscription_id=${id}`), 'uid');
    s.ok('DELETE', `/subscription_groups/${uid}/payment_profiles/${profile}.json`, undefined, 204);
    expect(get(s.ok('GET', `/subscription_groups/${uid}.json`), 'payment_profile_id')).toBeNull();
    s.fail(
      'DELETE',
      `/subscription_groups/${uid}/payment_profiles/${s.card(s.customer())}.json`,
      undefined,
      404,
    );
  });

  it('verifies a bank account; a card is not a bank account', () => {
    const s = site({}, START);
    const customer = s.customer();
    const bank = num(
      s.ok('POST', '/payment_profiles.json', {
        payment_profile: {
          customer_id: customer,
          payment_type: 'bank_account',
          bank_name: 'Acme Bank',
          bank_routing_number: '021000021',
          bank_account_number: '12345671',
        },
      }),
      'payment_profile',
      'id',
    );
    const body = { bank_account_verification: { deposit_1_in_cents: 32, deposit_2_in_cents: 45 } };
    expect(num(s.ok('PUT', `/bank_accounts/${bank}/verification.json`, body), 'payment_profile', 'id')).toBe(
      bank,
    );
    s.fail('PUT', `/bank_accounts/${bank}/verification.json`, {}, 422);
    s.fail('PUT', `/bank_accounts/${s.card(customer)}/verification.json`, body, 404);
  });
});
