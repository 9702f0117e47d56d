/** A subscription's account: balances, prepayments listed and refunded, service credit deducted. */
import { describe, expect, it } from 'vitest';
import { checkLedger, checkState } from '../../../src/testing/index.js';
import { arr, num, type Site, site, str } from '../../helpers/api.js';
import { createAdHoc, custom, prepay, remittance, serviceCredit } from '../../helpers/invoices.js';

const sound = (s: Site) => {
  expect(checkLedger(s.state)).toEqual([]);
  expect(checkState(s.state)).toEqual([]);
};

describe('account balances', () => {
  it('shows open invoices by collection method, service credits and prepayments', () => {
    const s = site();
    const { id } = remittance(s);
    createAdHoc(s, id, { line_items: [custom('Work', 3, '10')] });
    serviceCredit(s, id, '4');
    prepay(s, id, '7.50');
    expect(s.ok('GET', `/subscriptions/${id}/account_balances.json`)).toEqual({
      // The $10 signup invoice and the $30 ad hoc one.
      open_invoices: {
        balance_in_cents: 4000,
        automatic_balance_in_cents: 0,
        remittance_balance_in_cents: 4000,
      },
      pending_invoices: {
        balance_in_cents: 0,
        automatic_balance_in_cents: 0,
        remittance_balance_in_cents: 0,
      },
      pending_discounts: { balance_in_cents: 0 },
      service_credits: { balance_in_cents: 400 },
      prepayments: { balance_in_cents: 750 },
    });
    s.fail('GET', '/subscriptions/999/account_balances.json', undefined, 404);
  });
});

describe('prepayments', () => {
  it('lists each prepayment with what remains once invoices drew the oldest money', () => {
    const s = site();
    const { id } = remittance(s);
    const first = num(prepay(s, id, '10'), 'prepayment', 'id');
    const second = num(prepay(s, id, '5'), 'prepayment', 'id');
    const uid = str(createAdHoc(s, id, { line_items: [custom('Work', 1, '8')] }), 'uid');
    s.ok('POST', `/invoices/${uid}/payments.json`, { type: 'prepayment', payment: { amount: '8' } }, 200);
    expect(arr(s.ok('GET', `/subscriptions/${id}/prepayments.json`), 'prepayments')).toMatchObject([
      { id: first, amount_in_cents: 1000, remaining_amount_in_cents: 200, refunded_amount_in_cents: 0 },
      { id: second, amount_in_cents: 500, remaining_amount_in_cents: 500 },
    ]);
    const page = s.ok('GET', `/subscriptions/${id}/prepayments.json?page=2&per_page=1`);
    expect(arr(page, 'prepayments')).toMatchObject([{ id: second }]);
    const none = s.ok('GET', `/subscriptions/${id}/prepayments.json?filter[start_date]=2030-01-01`);
    expect(arr(none, 'prepayments')).toEqual([]);
    sound(s);
  });

  it('refunds what remains of a prepayment, and no more (400)', () => {
    const s = site();
    const { id } = remittance(s);
    const prepayment = num(prepay(s, id, '10'), 'prepayment', 'id');
    const path = `/subscriptions/${id}/prepayments/${prepayment}/refunds.json`;
    const called = s.request('POST', path, {
      refund: { amount: '4', memo: 'Returned', amount_in_cents: null },
    });
    expect(called.status).toBe(201);
    expect(called.body).toMatchObject({
      prepayment: {
        id: prepayment,
        amount_in_cents: 1000,
        remaining_amount_in_cents: 600,
        refunded_amount_in_cents: 400,
      },
    });
    expect(called.events).toMatchObject([
      {
        key: 'subscription_prepayment_account_balance_changed',
        event_specific_data: {
          prepayment_balance_change_in_cents: -400,
          prepayment_account_balance_in_cents: 600,
        },
      },
    ]);
    const over = s.fail('POST', path, { refund: { amount: '6.01', memo: 'Too much' } }, 400);
    expect(over).toMatchObject({ errors: { refund: { base: [expect.stringContaining('6')] } } });
    s.ok('POST', path, { refund: { amount_in_cents: 600, memo: 'The rest' } }, 201);
    expect(num(s.subscription(id), 'prepayment_balance_in_cents')).toBe(0);
    s.fail(
      'POST',
      `/subscriptions/${id}/prepayments/999/refunds.json`,
      { refund: { amount: '1', memo: 'x' } },
      404,
    );
    sound(s);
  });
});

describe('service credit deductions', () => {
  it('takes service credit back, and no more than the balance', () => {
    const s = site();
    const { id } = remittance(s);
    serviceCredit(s, id, '10');
    const path = `/subscriptions/${id}/service_credit_deductions.json`;
    const called = s.request('POST', path, { deduction: { amount: '3', memo: 'Correction' } });
    expect(called.status).toBe(201);
    expect(called.events).toMatchObject([
      {
        key: 'subscription_service_credit_account_balance_changed',
        event_specific_data: {
          service_credit_balance_change_in_cents: -300,
          service_credit_account_balance_in_cents: 700,
        },
      },
    ]);
    expect(num(s.subscription(id), 'credit_balance_in_cents')).toBe(700);
    s.fail('POST', path, { deduction: { amount: '7.01' } }, 422);
    sound(s);
  });
});
