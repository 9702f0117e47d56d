import { describe, expect, it } from 'vitest';
import { arr, get, num, site, str } from '../../helpers/api.js';

function twoSubscriptions() {
  const s = site();
  const product = s.product({ price_in_cents: 1250 });
  const paid = s.subscribed(product);
  const customer = s.customer();
  const remittance = num(
    s.subscribe({ product_id: product, customer_id: customer, payment_collection_method: 'remittance' }),
    'subscription',
    'id',
  );
  return { s, paid: paid.id, remittance };
}

describe('invoices', () => {
  it('reads an invoice by uid as the bare invoice', () => {
    const { s, paid } = twoSubscriptions();
    const [listed] = s.invoices(paid);
    const uid = str(listed, 'uid');
    expect(uid).toMatch(/^inv_[0-9a-z]{13}$/);
    const body = s.ok('GET', `/invoices/${uid}.json`);
    expect(body).toEqual(listed);
    expect(body).toMatchObject({
      uid,
      subscription_id: paid,
      number: '1',
      role: 'signup',
      status: 'paid',
      currency: 'USD',
      issue_date: '2026-01-15',
      paid_date: '2026-01-15',
      subtotal_amount: '12.50',
      total_amount: '12.50',
      paid_amount: '12.50',
      due_amount: '0.00',
      line_items: [{ title: expect.any(String), quantity: '1', subtotal_amount: '12.50' }],
      payments: [{ applied_amount: '12.50', payment_method: { type: 'credit_card', last_four: '1111' } }],
    });
  });

  it('answers 404 for an unknown or malformed uid', () => {
    const { s } = twoSubscriptions();
    for (const uid of ['inv_00000000000zz', 'inv_1', 'nope', '1'])
      s.fail('GET', `/invoices/${uid}.json`, undefined, 404);
  });

  it('lists invoices, filtered by subscription_id and by a comma list of statuses', () => {
    const { s, paid, remittance } = twoSubscriptions();
    const subs = (path: string) =>
      arr(s.ok('GET', path), 'invoices').map((invoice) => get(invoice, 'subscription_id'));
    expect(subs('/invoices.json')).toEqual([paid, remittance]);
    expect(subs('/invoices.json?direction=desc')).toEqual([remittance, paid]);
    expect(subs(`/invoices.json?subscription_id=${remittance}`)).toEqual([remittance]);
    expect(subs('/invoices.json?subscription_id=99')).toEqual([]);
    expect(subs('/invoices.json?status=open')).toEqual([remittance]);
    expect(subs('/invoices.json?status=paid,open')).toEqual([paid, remittance]);
    expect(subs('/invoices.json?per_page=1&page=2')).toEqual([remittance]);
    s.fail('GET', '/invoices.json?page=-1', undefined, 422);
  });

  it('numbers invoices in sequence across subscriptions', () => {
    const { s } = twoSubscriptions();
    const numbers = arr(s.ok('GET', '/invoices.json'), 'invoices').map((invoice) => get(invoice, 'number'));
    expect(numbers).toEqual(['1', '2']);
  });
});

describe('invoice dates', () => {
  it('dates an invoice in the site zone and adds the net terms to the due date', () => {
    // 2026-01-15T12:00Z is 16 January 01:00 in Apia (UTC+13)
    const s = site({ timeZone: 'Pacific/Apia' });
    const product = s.product();
    const customer = s.customer();
    const id = num(
      s.subscribe({
        product_id: product,
        customer_id: customer,
        payment_collection_method: 'remittance',
        net_terms: 30,
      }),
      'subscription',
      'id',
    );
    expect(s.invoices(id)).toMatchObject([
      {
        issue_date: '2026-01-16',
        due_date: '2026-02-15',
        net_terms: 30,
        created_at: '2026-01-16T01:00:00+13:00',
        line_items: [{ period_range_start: '2026-01-16' }],
      },
    ]);
  });
});
