/**
 * The books through `handle()` (CONTRACT 5a, issue 20): every money movement is a balanced transfer in
 * `state.ledger`, and the defects the books exposed stay fixed.
 */
import { describe, expect, it } from 'vitest';
import { listToArray } from '../../../src/kernel/collection.js';
import { checkLedger } from '../../../src/testing/index.js';
import { get, num, type Site, site, str } from '../../helpers/api.js';
import { balances, createAdHoc, custom, prepay, remittance, serviceCredit } from '../../helpers/invoices.js';

const kinds = (s: Site) => listToArray(s.state.ledger).map((transfer) => transfer.kind);
const revenue = (s: Site, id: number) => num(s.subscription(id), 'total_revenue_in_cents');
const pay = (s: Site, uid: string, amount: string, type: string) =>
  s.ok(
    'POST',
    `/invoices/${uid}/payments.json`,
    { payment: { amount, memo: 'Check 7', method: 'check' }, type },
    200,
  );
const voidIt = (s: Site, uid: string) =>
  s.ok('POST', `/invoices/${uid}/void.json`, { void: { reason: 'Mistake' } }, 200);

describe('the ledger', () => {
  it('a paid signup posts what it billed and the money that settled it, debits equal to credits', () => {
    const s = site({ taxes: [{ name: 'VAT', percentage: '10' }] });
    const product = s.product({ price_in_cents: 2000, taxable: true });
    s.subscribed(product);
    expect(kinds(s)).toEqual(['invoice_sales', 'invoice_tax', 'payment']);
    const [sales, tax, payment] = listToArray(s.state.ledger);
    expect(sales).toMatchObject({ debit: { name: 'receivable' }, credit: { name: 'sales' }, amount: '20' });
    expect(tax).toMatchObject({ debit: { name: 'receivable' }, credit: { name: 'tax' }, amount: '2' });
    expect(payment).toMatchObject({ debit: { name: 'cash' }, credit: { name: 'receivable' }, amount: '22' });
    expect(checkLedger(s.state)).toEqual([]);
  });

  it('survives a JSON round trip of the state', () => {
    const s = site();
    s.subscribed(s.product({ price_in_cents: 1500 }));
    const copy = JSON.parse(JSON.stringify(s.state)) as typeof s.state;
    expect(copy.ledger).toEqual(s.state.ledger);
    expect(checkLedger(copy)).toEqual([]);
  });

  it('a draft posts nothing until it is issued', () => {
    const s = site();
    const { id } = remittance(s);
    const before = s.state.ledger.length;
    const uid = str(createAdHoc(s, id, { status: 'draft', line_items: [custom('Work', 2, '10')] }), 'uid');
    expect(s.state.ledger.length).toBe(before);
    s.ok('POST', `/invoices/${uid}/issue.json`, {}, 200);
    expect(kinds(s).slice(before)).toEqual(['invoice_sales']);
    expect(checkLedger(s.state)).toEqual([]);
  });
});

describe('revenue is money received', () => {
  it('a prepayment paid onto an invoice and voided, three times, adds its amount to revenue once', () => {
    const s = site();
    const { id } = remittance(s);
    prepay(s, id, '30');
    expect(revenue(s, id)).toBe(3000);
    for (let round = 0; round < 3; round += 1) {
      const uid = str(createAdHoc(s, id, { line_items: [custom('Work', 3, '10')] }), 'uid');
      pay(s, uid, '10', 'prepayment');
      voidIt(s, uid);
    }
    expect(revenue(s, id)).toBe(3000);
    expect(balances(s, id)).toEqual({ credit: 0, prepayment: 3000 });
    expect(checkLedger(s.state)).toEqual([]);
  });

  it('paying with service credit is not revenue', () => {
    const s = site();
    const { id } = remittance(s);
    serviceCredit(s, id, '30');
    const uid = str(createAdHoc(s, id, { line_items: [custom('Work', 3, '10')] }), 'uid');
    expect(pay(s, uid, '30', 'service_credit')).toMatchObject({
      status: 'paid',
      credit_amount: '30.00',
      paid_amount: '0.00',
    });
    expect(revenue(s, id)).toBe(0);
    expect(checkLedger(s.state)).toEqual([]);
  });
});

describe('voiding an invoice that holds a payment', () => {
  it('moves the money received to the subscription prepayments, where the customer sees it', () => {
    const s = site();
    const { id } = remittance(s);
    const uid = str(createAdHoc(s, id, { line_items: [custom('Work', 3, '10')] }), 'uid');
    pay(s, uid, '12.50', 'external');
    const voided = s.request('POST', `/invoices/${uid}/void.json`, { void: { reason: 'Mistake' } });
    expect(voided.status).toBe(200);
    expect(voided.body).toMatchObject({ status: 'voided', due_amount: '0.00', paid_amount: '12.50' });
    expect(balances(s, id)).toEqual({ credit: 0, prepayment: 1250 });
    expect(revenue(s, id)).toBe(1250);
    expect(voided.events).toMatchObject([
      {
        key: 'subscription_prepayment_account_balance_changed',
        event_specific_data: {
          prepayment_balance_change_in_cents: 1250,
          prepayment_account_balance_in_cents: 1250,
        },
      },
    ]);
    expect(kinds(s).slice(-2)).toEqual(['void_payment_moved', 'invoice_void']);
    expect(get(listToArray(s.state.ledger).at(-1), 'amount')).toBe('30');
    // The money is spendable: the next invoice takes it first.
    const next = str(createAdHoc(s, id, { status: 'draft', line_items: [custom('Work', 1, '10')] }), 'uid');
    expect(s.ok('POST', `/invoices/${next}/issue.json`, {}, 200)).toMatchObject({
      status: 'paid',
      paid_amount: '10.00',
    });
    expect(balances(s, id)).toEqual({ credit: 0, prepayment: 250 });
    expect(checkLedger(s.state)).toEqual([]);
  });
});

describe('a downgrade credits only what was paid for the component', () => {
  const seatsOn = (s: Site) =>
    num(
      s.ok(
        'POST',
        '/product_families/1/quantity_based_components.json',
        {
          quantity_based_component: {
            name: 'Seats',
            unit_name: 'seat',
            pricing_scheme: 'per_unit',
            unit_price: '10',
          },
        },
        201,
      ),
      'component',
      'id',
    );

  it('an upgrade left unpaid on a remittance invoice earns no credit when it is taken back', () => {
    const s = site();
    const { id } = remittance(s);
    const seats = seatsOn(s);
    s.at('2026-01-20T12:00:00Z');
    s.ok(
      'POST',
      `/subscriptions/${id}/components/${seats}/allocations.json`,
      { allocation: { quantity: 5 } },
      201,
    );
    s.at('2026-01-25T12:00:00Z');
    const path = `/subscriptions/${id}/components/${seats}/allocations.json`;
    s.ok('POST', path, { allocation: { quantity: 0, downgrade_credit: 'prorated' } }, 201);
    expect(balances(s, id)).toEqual({ credit: 0, prepayment: 0 });
    expect(checkLedger(s.state)).toEqual([]);
  });

  it('once the upgrade is paid, the same downgrade credits the unused part of it', () => {
    const s = site();
    const { id } = remittance(s);
    const seats = seatsOn(s);
    s.at('2026-01-20T12:00:00Z');
    const path = `/subscriptions/${id}/components/${seats}/allocations.json`;
    s.ok('POST', path, { allocation: { quantity: 5 } }, 201);
    const proration = s
      .invoices(id)
      .filter((invoice) => get(invoice, 'status') === 'open')
      .at(-1);
    const uid = str(proration, 'uid');
    pay(s, uid, str(proration, 'due_amount'), 'external');
    s.at('2026-01-25T12:00:00Z');
    s.ok('POST', path, { allocation: { quantity: 0, downgrade_credit: 'prorated' } }, 201);
    // 5 seats × 10.00 × 21 of 31 days left, rounded once; within the 41.94 paid for them.
    expect(str(proration, 'total_amount')).toBe('41.94');
    expect(balances(s, id)).toEqual({ credit: 3387, prepayment: 0 });
    expect(checkLedger(s.state)).toEqual([]);
  });
});
