import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSite, handle, type SiteState } from '../../src/index.js';
import { listFromArray, tableGet } from '../../src/kernel/collection.js';
import {
  checkInvoice,
  checkState,
  invoiceRequestArbitrary,
  siteConfigArbitrary,
} from '../../src/testing/index.js';

const NOW = '2026-03-10T12:00:00Z';

function siteWithSubscription(config: Parameters<typeof createSite>[0]): SiteState {
  let state = createSite({ ...config, taxes: [{ name: 'Sales', percentage: '8.875' }] });
  const steps: [string, string, unknown][] = [
    ['POST', '/product_families.json', { product_family: { name: 'Plans' } }],
    [
      'POST',
      '/product_families/1/products.json',
      {
        product: { name: 'Basic', price_in_cents: 1000, interval: 1, interval_unit: 'month', taxable: true },
      },
    ],
    [
      'POST',
      '/subscriptions.json',
      {
        subscription: {
          product_id: 1,
          customer_attributes: { first_name: 'Ada', last_name: 'L', email: 'ada@example.com' },
          credit_card_attributes: {
            full_number: '4111111111111111',
            expiration_month: 1,
            expiration_year: 2031,
          },
        },
      },
    ],
  ];
  for (const [method, path, body] of steps) {
    const result = handle(state, { method, path, body }, { now: NOW });
    expect(result.response.status).toBe(201);
    state = result.state;
  }
  return state;
}

describe('billing-core/testing', () => {
  it('law: every invoice created from a generated ad hoc request satisfies checkInvoice', () => {
    fc.assert(
      fc.property(siteConfigArbitrary(), invoiceRequestArbitrary(), (config, request) => {
        const state = siteWithSubscription({
          timeZone: config.timeZone ?? 'UTC',
          currency: config.currency ?? 'USD',
        });
        const result = handle(
          state,
          { method: 'POST', path: '/subscriptions/1/invoices.json', body: request },
          { now: NOW },
        );
        expect(result.response.status).toBe(201);
        expect(checkState(result.state)).toEqual([]);
      }),
      { numRuns: 40 },
    );
  });

  it('checkInvoice reports a corrupted total and breakouts that do not add up', () => {
    const state = siteWithSubscription({});
    const created = handle(
      state,
      {
        method: 'POST',
        path: '/subscriptions/1/invoices.json',
        body: {
          invoice: {
            line_items: [
              { title: 'A', quantity: 1, unit_price: '10', taxable: true },
              { title: 'B', quantity: 3, unit_price: '3.33', taxable: true },
            ],
            coupons: [{ code: 'X', percentage: 10 }],
          },
        },
      },
      { now: NOW },
    );
    const invoice = tableGet(created.state.tables.invoices, 2);
    expect(invoice).toBeDefined();
    if (invoice === undefined) return;
    expect(checkInvoice(invoice)).toEqual([]);
    const corrupted = { ...invoice, totals: { ...invoice.totals, total: '999' } };
    expect(checkInvoice(corrupted).join('\n')).toContain('total is not subtotal − discount + tax');
    const [first, ...rest] = invoice.discounts;
    if (first === undefined) throw new Error('the invoice has a discount');
    const badBreakouts = {
      ...invoice,
      discounts: [{ ...first, breakouts: first.breakouts.slice(1) }, ...rest],
    };
    expect(checkInvoice(badBreakouts).join('\n')).toContain('breakouts add up to');
    const negativeLine = {
      ...invoice,
      lines: listFromArray([{ ...invoice.lines.chunks[0]![0]!, discount: '1000', total: '-990' }]),
    };
    expect(checkInvoice(negativeLine).join('\n')).toContain('negative amount');
  });
});
