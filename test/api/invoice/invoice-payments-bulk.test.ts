/** A payment for a subscription (oldest open invoices first, the rest a prepayment) and one over several invoices. */
import { describe, expect, it } from 'vitest';
import { checkLedger, checkState } from '../../../src/testing/index.js';
import { arr, get, num, type Site, site, str } from '../../helpers/api.js';
import { createAdHoc, custom, remittance } from '../../helpers/invoices.js';

const sound = (s: Site) => {
  expect(checkLedger(s.state)).toEqual([]);
  expect(checkState(s.state)).toEqual([]);
};

/** A remittance subscription to a free product with two open ad hoc invoices of $30 and $20. */
function twoOpen() {
  const s = site();
  const sub = remittance(s, {}, { product_id: s.product({ price_in_cents: 0 }) });
  const first = str(createAdHoc(s, sub.id, { line_items: [custom('Work', 3, '10')] }), 'uid');
  const second = str(createAdHoc(s, sub.id, { line_items: [custom('More', 2, '10')] }), 'uid');
  return { s, ...sub, first, second };
}

const payment = (amount: string) => ({
  payment: { amount, memo: 'Wire', payment_details: 'ref 7', payment_method: 'ach' },
});

describe('a payment for a subscription', () => {
  it('pays the oldest open invoices first and keeps the excess as a prepayment', () => {
    const { s, id, first, second } = twoOpen();
    const called = s.request('POST', `/subscriptions/${id}/payments.json`, payment('60'));
    expect(called.status).toBe(200);
    expect(called.body).toEqual({
      paid_invoices: [
        { invoice_id: first, status: 'paid', due_amount: '0.00', paid_amount: '30.00' },
        { invoice_id: second, status: 'paid', due_amount: '0.00', paid_amount: '20.00' },
      ],
      prepayment: { subscription_id: id, amount_in_cents: 1000, ending_balance_in_cents: 1000 },
    });
    const listed = arr(s.ok('GET', `/subscriptions/${id}/prepayments.json`), 'prepayments');
    expect(listed).toMatchObject([
      {
        amount_in_cents: 1000,
        remaining_amount_in_cents: 1000,
        memo: 'Wire',
        payment_type: 'ach',
        details: 'ref 7',
      },
    ]);
    sound(s);
  });

  it('a partial payment leaves the newer invoice open and no prepayment', () => {
    const { s, id, first, second } = twoOpen();
    const body = s.ok('POST', `/subscriptions/${id}/payments.json`, payment('35'), 200);
    expect(body).toEqual({
      paid_invoices: [
        { invoice_id: first, status: 'paid', due_amount: '0.00', paid_amount: '30.00' },
        { invoice_id: second, status: 'open', due_amount: '15.00', paid_amount: '5.00' },
      ],
      prepayment: null,
    });
    sound(s);
  });

  it('refuses a zero amount and an unknown subscription', () => {
    const { s, id } = twoOpen();
    s.fail('POST', `/subscriptions/${id}/payments.json`, payment('0'), 422);
    s.fail('POST', '/subscriptions/999/payments.json', payment('5'), 404);
  });
});

describe('one payment over several invoices', () => {
  it('applies each amount to its invoice and answers the applications', () => {
    const { s, first, second } = twoOpen();
    const body = s.ok(
      'POST',
      '/invoices/payments.json',
      {
        payment: {
          amount: '45',
          memo: 'to pay the bills',
          method: 'check',
          applications: [
            { invoice_uid: first, amount: '30' },
            { invoice_uid: second, amount: '15' },
          ],
        },
      },
      200,
    );
    expect(body).toMatchObject({
      payment: {
        total_amount: '45.00',
        currency_code: 'USD',
        applications: [
          { invoice_uid: first, applied_amount: '30.00' },
          { invoice_uid: second, applied_amount: '15.00' },
        ],
      },
    });
    expect(num(body, 'payment', 'transaction_id')).toBeGreaterThan(0);
    expect(get(s.ok('GET', `/invoices/${second}.json`), 'due_amount')).toBe('5.00');
    sound(s);
  });

  it('refuses applications above the amount, above what an invoice owes, or to an unknown invoice', () => {
    const { s, first } = twoOpen();
    const pay = (amount: string, invoice: string, applied: string) => ({
      payment: { amount, applications: [{ invoice_uid: invoice, amount: applied }] },
    });
    s.fail('POST', '/invoices/payments.json', pay('10', first, '20'), 422);
    s.fail('POST', '/invoices/payments.json', pay('40', first, '40'), 422);
    s.fail('POST', '/invoices/payments.json', pay('10', 'inv_0000000000999', '10'), 422);
  });
});
