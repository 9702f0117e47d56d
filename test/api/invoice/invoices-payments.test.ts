/** Payments on invoices, voiding, and the balances they draw on: prepayments and service credits. */
import { describe, expect, it } from 'vitest';
import { get, type Site, site, str } from '../../helpers/api.js';
import {
  balances,
  createAdHoc,
  custom,
  expectIdentities,
  historyKinds,
  issue,
  prepay,
  remittance,
  serviceCredit,
} from '../../helpers/invoices.js';

const keys = (events: readonly { key: string }[]) => events.map((event) => event.key);

/** A remittance subscription with an open $30 ad hoc invoice. */
function openInvoice() {
  const s = site();
  const sub = remittance(s);
  const uid = str(createAdHoc(s, sub.id, { line_items: [custom('Work', 3, '10')] }), 'uid');
  return { s, ...sub, uid, path: `/invoices/${uid}/payments.json` };
}

const pay = (s: Site, path: string, amount: string, type?: string) =>
  s.ok(
    'POST',
    path,
    { payment: { amount, memo: 'Check 42', method: 'check' }, ...(type ? { type } : {}) },
    200,
  );

describe('prepayments and service credits', () => {
  it('a prepayment adds to the prepayment balance (201) and records the balance change', () => {
    const s = site();
    const { id } = remittance(s);
    const created = s.request('POST', `/subscriptions/${id}/prepayments.json`, {
      prepayment: { amount: '12.34', memo: 'Up front', method: 'check' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      prepayment: { subscription_id: id, amount_in_cents: 1234, memo: 'Up front' },
    });
    prepay(s, id, '0.66');
    expect(balances(s, id)).toEqual({ credit: 0, prepayment: 1300 });
    expect(created.events).toMatchObject([
      {
        key: 'subscription_prepayment_account_balance_changed',
        event_specific_data: {
          reason: 'Up front',
          prepayment_account_balance_in_cents: 1234,
          prepayment_balance_change_in_cents: 1234,
          currency_code: 'USD',
        },
      },
    ]);
  });

  it('a service credit adds to the credit balance (201) and reports the ending balance', () => {
    const s = site();
    const { id } = remittance(s);
    serviceCredit(s, id, '5');
    const created = s.request('POST', `/subscriptions/${id}/service_credits.json`, {
      service_credit: { amount: '2.50', memo: 'Outage' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      service_credit: {
        amount_in_cents: 250,
        entry_type: 'Credit',
        memo: 'Outage',
        ending_balance_in_cents: 750,
      },
    });
    expect(balances(s, id)).toEqual({ credit: 750, prepayment: 0 });
  });

  it('a service credit records the balance change in the event log', () => {
    const s = site();
    const { id } = remittance(s);
    const created = s.request('POST', `/subscriptions/${id}/service_credits.json`, {
      service_credit: { amount: '2.50', memo: 'Outage' },
    });
    expect(keys(created.events)).toEqual(['subscription_service_credit_account_balance_changed']);
    // Every field of the official CreditAccountBalanceChanged is required, at_time included.
    expect(created.events[0]?.event_specific_data).toEqual({
      reason: 'Outage',
      service_credit_account_balance_in_cents: 250,
      service_credit_balance_change_in_cents: 250,
      currency_code: 'USD',
      at_time: '2026-01-15T12:00:00Z',
    });
  });

  it('amount_in_cents agrees with the balance in cents in a zero-decimal currency', () => {
    const s = site({ currency: 'JPY' });
    const { id } = remittance(s);
    const prepayment = get(prepay(s, id, '1000'), 'prepayment', 'amount_in_cents');
    const credit = get(serviceCredit(s, id, '500'), 'service_credit', 'amount_in_cents');
    expect({ prepayment, credit }).toEqual(balances(s, id));
  });

  it('refuses a zero, negative or malformed amount (422) and an unknown subscription (404)', () => {
    const s = site();
    const { id } = remittance(s);
    for (const amount of ['0', '-1', '1.001', 'ten']) {
      s.fail('POST', `/subscriptions/${id}/prepayments.json`, { prepayment: { amount } }, 422);
      s.fail('POST', `/subscriptions/${id}/service_credits.json`, { service_credit: { amount } }, 422);
    }
    s.fail('POST', '/subscriptions/99/prepayments.json', { prepayment: { amount: '1' } }, 404);
    s.fail('POST', '/subscriptions/99/service_credits.json', { service_credit: { amount: '1' } }, 404);
  });
});

describe('invoice payments', () => {
  it('records external payments; the invoice is paid when nothing is due', () => {
    const { s, id, path } = openInvoice();
    const first = s.request('POST', path, { payment: { amount: '10', memo: 'Check 42', method: 'check' } });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      status: 'open',
      paid_amount: '10.00',
      due_amount: '20.00',
      payments: [
        {
          applied_amount: '10.00',
          memo: 'Check 42',
          prepayment: false,
          payment_method: { type: 'external', kind: 'check' },
        },
      ],
    });
    expectIdentities(first.body);
    expect(keys(first.events)).toEqual(['payment_success']);
    const second = pay(s, path, '20.00', 'external');
    expect(second).toMatchObject({
      status: 'paid',
      paid_date: '2026-01-15',
      paid_amount: '30.00',
      due_amount: '0.00',
    });
    expect(s.subscription(id)).toMatchObject({ total_revenue_in_cents: 3000 });
  });

  it('refuses an overpayment, a zero amount, a payment on a paid, draft or unknown invoice', () => {
    const { s, id, path } = openInvoice();
    s.fail('POST', path, { payment: { amount: '30.01' } }, 422);
    s.fail('POST', path, { payment: { amount: '0' } }, 422);
    s.fail('POST', path, { payment: {} }, 422);
    pay(s, path, '30');
    s.fail('POST', path, { payment: { amount: '1' } }, 422);
    const draft = str(createAdHoc(s, id, { status: 'draft', line_items: [custom('A', 1, '5')] }), 'uid');
    s.fail('POST', `/invoices/${draft}/payments.json`, { payment: { amount: '1' } }, 422);
    s.fail('POST', '/invoices/inv_00000000000zz/payments.json', { payment: { amount: '1' } }, 404);
  });

  it('a prepayment payment is limited by the prepayment balance, which it reduces', () => {
    const { s, id, path } = openInvoice();
    prepay(s, id, '12');
    s.fail('POST', path, { payment: { amount: '12.01' }, type: 'prepayment' }, 422);
    expect(pay(s, path, '12', 'prepayment')).toMatchObject({
      status: 'open',
      due_amount: '18.00',
      payments: [{ applied_amount: '12.00', prepayment: true }],
    });
    expect(balances(s, id)).toEqual({ credit: 0, prepayment: 0 });
    s.fail('POST', path, { payment: { amount: '1' }, type: 'prepayment' }, 422);
  });

  it('a service credit payment must pay the full amount due, within the credit balance', () => {
    const { s, id, path } = openInvoice();
    serviceCredit(s, id, '25');
    s.fail('POST', path, { payment: { amount: '30' }, type: 'service_credit' }, 422);
    serviceCredit(s, id, '10');
    s.fail('POST', path, { payment: { amount: '29.99' }, type: 'service_credit' }, 422);
    expect(pay(s, path, '30', 'service_credit')).toMatchObject({ status: 'paid', due_amount: '0.00' });
    expect(balances(s, id)).toEqual({ credit: 500, prepayment: 0 });
  });
});

describe('void an invoice', () => {
  it('needs a reason (422) and answers 404 for an unknown invoice', () => {
    const { s, uid } = openInvoice();
    const path = `/invoices/${uid}/void.json`;
    for (const body of [undefined, {}, { void: {} }, { void: { reason: '' } }])
      s.fail('POST', path, body, 422);
    s.fail('POST', '/invoices/inv_00000000000zz/void.json', { void: { reason: 'x' } }, 404);
  });

  it('voids an open invoice and returns its prepayments and service credits to the subscription', () => {
    const s = site();
    const { id } = remittance(s);
    serviceCredit(s, id, '5');
    prepay(s, id, '10');
    const uid = str(createAdHoc(s, id, { status: 'draft', line_items: [custom('Work', 1, '30')] }), 'uid');
    expect(issue(s, uid)).toMatchObject({ credit_amount: '5.00', paid_amount: '10.00', due_amount: '15.00' });
    expect(balances(s, id)).toEqual({ credit: 0, prepayment: 0 });
    const voided = s.request('POST', `/invoices/${uid}/void.json`, { void: { reason: 'Billed by mistake' } });
    expect(voided.status).toBe(200);
    expect(voided.body).toMatchObject({
      uid,
      status: 'voided',
      credit_amount: '0.00',
      paid_amount: '0.00',
      due_amount: '0.00',
    });
    // No official EventKey names a voided invoice (`void_invoice` is an invoice event), so the site log
    // records nothing; the void shows in the invoice and the returned balances.
    expect(voided.events).toEqual([]);
    expect(historyKinds(s.state, uid)).toContain('voided');
    expect(balances(s, id)).toEqual({ credit: 500, prepayment: 1000 });
    s.fail('POST', `/invoices/${uid}/void.json`, { void: { reason: 'again' } }, 422);
    s.fail('POST', `/invoices/${uid}/payments.json`, { payment: { amount: '1' } }, 422);
    expect(get(s.ok('GET', `/invoices/${uid}.json`), 'status')).toBe('voided');
  });

  it('refuses to void a draft (422: void applies to open, pending and canceled invoices; a draft is deleted)', () => {
    const s = site();
    const { id } = remittance(s);
    const uid = str(createAdHoc(s, id, { status: 'draft', line_items: [custom('A', 1, '5')] }), 'uid');
    s.fail('POST', `/invoices/${uid}/void.json`, { void: { reason: 'x' } }, 422);
  });

  it('refuses to void a paid invoice (422)', () => {
    const { s, uid, path } = openInvoice();
    pay(s, path, '30');
    s.fail('POST', `/invoices/${uid}/void.json`, { void: { reason: 'x' } }, 422);
  });
});
