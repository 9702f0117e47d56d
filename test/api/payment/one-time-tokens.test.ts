import { describe, expect, it } from 'vitest';
import { addOneTimeToken, createSite } from '../../../src/index.js';
import { call, errorsOf, get, site, str } from '../../helpers/api.js';

const card = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  full_number: '4111 1111 1111 1111',
  expiration_month: 12,
  expiration_year: 2030,
};

/** The fields `GetOneTimeTokenPaymentProfile` requires in the official client, with their JSON types. */
const REQUIRED: Readonly<Record<string, 'string' | 'number' | 'boolean'>> = {
  first_name: 'string',
  last_name: 'string',
  masked_card_number: 'string',
  card_type: 'string',
  expiration_month: 'number',
  expiration_year: 'number',
  current_vault: 'string',
  vault_token: 'string',
  billing_address: 'string',
  billing_city: 'string',
  billing_country: 'string',
  billing_state: 'string',
  billing_zip: 'string',
  payment_type: 'string',
  disabled: 'boolean',
  site_gateway_setting_id: 'number',
};

describe('one-time tokens', () => {
  it('reads a token a host registered with addOneTimeToken as {payment_profile} with every required field', () => {
    const initial = createSite();
    const state = addOneTimeToken(initial, { token: 'tok_ada', ...card, billing_city: 'London' });
    expect(state).not.toBe(initial);
    expect(initial.tables.oneTimeTokens.count).toBe(0);
    const read = call(state, 'GET', '/one_time_tokens/tok_ada.json');
    expect(read.status).toBe(200);
    expect(read.state).toBe(state);
    const profile = get(read.body, 'payment_profile') as Record<string, unknown>;
    for (const [field, type] of Object.entries(REQUIRED)) expect(typeof profile[field], field).toBe(type);
    expect(profile).toEqual({
      id: null,
      first_name: 'Ada',
      last_name: 'Lovelace',
      masked_card_number: 'XXXX-XXXX-XXXX-1111',
      card_type: 'visa',
      expiration_month: 12,
      expiration_year: 2030,
      customer_id: null,
      current_vault: 'bogus',
      vault_token: 'bogus_token_1',
      billing_address: '',
      billing_address_2: '',
      billing_city: 'London',
      billing_country: '',
      billing_state: '',
      billing_zip: '',
      payment_type: 'credit_card',
      disabled: false,
      site_gateway_setting_id: 1,
      customer_vault_token: null,
      gateway_handle: null,
    });
    // The full card number is never kept.
    expect(JSON.stringify(state)).not.toContain('4111 1111 1111 1111');
    expect(JSON.stringify(state)).not.toContain('4111111111111111');
  });

  it('addOneTimeToken throws a RangeError for invalid data or a token already taken', () => {
    const state = addOneTimeToken(createSite(), { token: 'tok_ada', ...card });
    expect(() => addOneTimeToken(state, { token: 'tok_ada', ...card })).toThrow(/already been taken/);
    expect(() => addOneTimeToken(state, { token: 'bad token!', ...card })).toThrow(RangeError);
    expect(() => addOneTimeToken(state, { token: 'tok_x', ...card, full_number: 'abc' })).toThrow(
      /Credit card number/,
    );
    expect(() => addOneTimeToken(state, { token: 'tok_x', ...card, expiration_month: 13 })).toThrow(
      /expiration_month/,
    );
    expect(() => addOneTimeToken(state, { token: 'tok_x', ...card, card_type: 'monopoly' })).toThrow(
      /Card type/,
    );
    expect(() => addOneTimeToken(state, { token: 'tok_x', ...card, first_name: ' ' })).toThrow(/First name/);
  });

  it('POST /one_time_tokens.json registers a token (201 {token}), generated when none is named', () => {
    const s = site({ portalSecret: 'secret' });
    const named = s.ok('POST', '/one_time_tokens.json', { one_time_token: { token: 'tok_grace', ...card } });
    expect(named).toEqual({ token: 'tok_grace' });
    const generated = str(
      s.ok('POST', '/one_time_tokens.json', { one_time_token: { ...card, card_type: 'master' } }),
      'token',
    );
    expect(generated).toMatch(/^tok_[0-9a-f]{24}$/);
    expect(get(s.ok('GET', `/one_time_tokens/${generated}.json`), 'payment_profile', 'card_type')).toBe(
      'master',
    );
    expect(get(s.ok('GET', '/one_time_tokens/tok_grace.json'), 'payment_profile', 'first_name')).toBe('Ada');
    // Deterministic: the same requests give the same token on another site with the same secret.
    const again = site({ portalSecret: 'secret' });
    again.ok('POST', '/one_time_tokens.json', { one_time_token: { token: 'tok_grace', ...card } });
    expect(get(again.ok('POST', '/one_time_tokens.json', { one_time_token: card }), 'token')).toBe(generated);
  });

  it('POST without a token on a site without a portal secret is a 422: no name from public data (CONTRACT 9)', () => {
    const s = site();
    const before = s.state;
    expect(errorsOf(s.fail('POST', '/one_time_tokens.json', { one_time_token: card }, 422))).toMatch(
      /Token: is required.*no portal secret/,
    );
    expect(s.state).toBe(before);
    expect(
      s.ok('POST', '/one_time_tokens.json', { one_time_token: { token: 'tok_named', ...card } }),
    ).toEqual({
      token: 'tok_named',
    });
  });

  it('POST refuses invalid card data and a token already taken (422)', () => {
    const s = site();
    s.ok('POST', '/one_time_tokens.json', { one_time_token: { token: 'tok_1', ...card } });
    expect(
      errorsOf(s.fail('POST', '/one_time_tokens.json', { one_time_token: { token: 'tok_1', ...card } }, 422)),
    ).toMatch(/already been taken/);
    s.fail('POST', '/one_time_tokens.json', { one_time_token: { ...card, expiration_year: 'soon' } }, 422);
    s.fail('POST', '/one_time_tokens.json', { one_time_token: { ...card, last_name: undefined } }, 422);
    s.fail('POST', '/one_time_tokens.json', { one_time_token: { token: 'a/b', ...card } }, 422);
    s.fail('POST', '/one_time_tokens.json', {}, 422);
  });

  it('answers 404 {errors: [...]} for an unknown token', () => {
    const s = site();
    const body = s.fail('GET', '/one_time_tokens/tok_nope.json', undefined, 404);
    expect(errorsOf(body)).toMatch(/One-time token not found/);
    s.fail('DELETE', '/one_time_tokens/tok_nope.json', undefined, 405);
  });
});
