import { describe, expect, it } from 'vitest';
import { arr, card, errorsOf, get, num, site } from '../../helpers/api.js';

const cardFields = (number: string) => ({
  full_number: number,
  expiration_month: 12,
  expiration_year: 2030,
  first_name: 'Ada',
});
const bank = {
  payment_type: 'bank_account',
  bank_name: 'Bank',
  bank_routing_number: '021000021',
  bank_account_number: '000123456781',
};

describe('payment profiles', () => {
  it('stores a card ending in 1 (201), masked', () => {
    const s = site();
    const customer = s.customer();
    const body = s.ok('POST', '/payment_profiles.json', {
      payment_profile: { customer_id: customer, ...cardFields(card(1)) },
    });
    expect(body).toMatchObject({
      payment_profile: {
        id: 1,
        customer_id: customer,
        payment_type: 'credit_card',
        masked_card_number: 'XXXX-XXXX-XXXX-1111',
        card_type: 'visa',
        expiration_month: 12,
        expiration_year: 2030,
      },
    });
    expect(JSON.stringify(body)).not.toContain(card(1));
  });

  it('refuses a card ending in 3 (422, the gateway declines) and leaves the state untouched', () => {
    const s = site();
    const customer = s.customer();
    const body = s.fail(
      'POST',
      '/payment_profiles.json',
      { payment_profile: { customer_id: customer, ...cardFields(card(3)) } },
      422,
    );
    expect(errorsOf(body)).toMatch(/Credit card/);
  });

  it('accepts a card ending in 2: it authorizes, only payments fail', () => {
    const s = site();
    const customer = s.customer();
    s.ok('POST', '/payment_profiles.json', {
      payment_profile: { customer_id: customer, ...cardFields(card(2)) },
    });
  });

  it('refuses a malformed card, a missing expiry and an unknown customer', () => {
    const s = site();
    const customer = s.customer();
    s.fail(
      'POST',
      '/payment_profiles.json',
      { payment_profile: { customer_id: customer, ...cardFields('abcd') } },
      422,
    );
    s.fail(
      'POST',
      '/payment_profiles.json',
      { payment_profile: { customer_id: customer, full_number: card(1) } },
      422,
    );
    s.fail(
      'POST',
      '/payment_profiles.json',
      { payment_profile: { customer_id: customer, ...cardFields(card(1)), expiration_month: 13 } },
      422,
    );
    s.fail(
      'POST',
      '/payment_profiles.json',
      { payment_profile: { customer_id: 99, ...cardFields(card(1)) } },
      422,
    );
    s.fail('POST', '/payment_profiles.json', { payment_profile: cardFields(card(1)) }, 422);
  });

  it('stores a bank account and refuses a bad routing number', () => {
    const s = site();
    const customer = s.customer();
    const body = s.ok('POST', '/payment_profiles.json', {
      payment_profile: { customer_id: customer, ...bank },
    });
    expect(body).toMatchObject({
      payment_profile: {
        payment_type: 'bank_account',
        masked_bank_account_number: 'XXXX6781',
        bank_account_type: 'checking',
      },
    });
    s.fail(
      'POST',
      '/payment_profiles.json',
      { payment_profile: { customer_id: customer, ...bank, bank_routing_number: '12' } },
      422,
    );
    s.fail(
      'POST',
      '/payment_profiles.json',
      { payment_profile: { customer_id: customer, ...bank, bank_account_number: 'x' } },
      422,
    );
  });

  it("lists all profiles or one customer's by customer_id; reads one; 404 for unknown", () => {
    const s = site();
    const a = s.customer();
    const b = s.customer();
    const pa = s.card(a);
    const pb = s.card(b);
    const pa2 = s.card(a);
    const ids = (path: string) => arr(s.ok('GET', path)).map((item) => num(item, 'payment_profile', 'id'));
    expect(ids('/payment_profiles.json')).toEqual([pa, pb, pa2]);
    expect(ids(`/payment_profiles.json?customer_id=${a}`)).toEqual([pa, pa2]);
    expect(ids('/payment_profiles.json?customer_id=99')).toEqual([]);
    expect(get(s.ok('GET', `/payment_profiles/${pb}.json`), 'payment_profile', 'customer_id')).toBe(b);
    s.fail('GET', '/payment_profiles/99.json', undefined, 404);
  });

  it('deletes an unused profile (204); refuses one a live subscription uses until it is canceled', () => {
    const s = site();
    const customer = s.customer();
    const spare = s.card(customer);
    const deleted = s.request('DELETE', `/payment_profiles/${spare}.json`);
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBeUndefined();
    s.fail('GET', `/payment_profiles/${spare}.json`, undefined, 404);
    s.fail('DELETE', `/payment_profiles/${spare}.json`, undefined, 404);

    const { profile, id } = s.subscribed(s.product());
    s.fail('DELETE', `/payment_profiles/${profile}.json`, undefined, 422);
    s.ok('DELETE', `/subscriptions/${id}.json`);
    expect(s.request('DELETE', `/payment_profiles/${profile}.json`).status).toBe(204);
    expect(get(s.subscription(id), 'state')).toBe('canceled');
  });
});
