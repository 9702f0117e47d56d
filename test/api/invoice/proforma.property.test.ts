import { test } from '@fast-check/vitest';
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { get, num, site } from '../../helpers/api.js';

/** A tax percentage as the site config takes it: 0 to 30 with up to 4 decimals. */
const percentageArb = fc
  .integer({ min: 0, max: 300_000 })
  .map((tenThousandths) => (tenThousandths / 10_000).toFixed(4).replace(/\.?0+$/, '') || '0');

const caseArb = fc.record({
  priceInCents: fc.integer({ min: 0, max: 100_000_000 }),
  taxable: fc.boolean(),
  rates: fc.array(percentageArb, { minLength: 0, maxLength: 3 }),
  zone: fc.constantFrom('UTC', 'America/New_York', 'Pacific/Apia'),
});

const cents = (amount: unknown): number => Math.round(Number(amount) * 100);
const AMOUNTS = ['subtotal_amount', 'discount_amount', 'tax_amount', 'total_amount', 'due_amount'];

describe('proforma invoice laws', () => {
  test.prop([caseArb], { numRuns: 60 })(
    'preview equals the created proforma (amounts, lines, taxes), and leaves the state object identical',
    ({ priceInCents, taxable, rates, zone }) => {
      const taxes = rates.map((percentage, index) => ({
        name: `Tax ${index + 1}`,
        percentage,
        country: 'US',
      }));
      const s = site({ timeZone: zone, ...(taxes.length === 0 ? {} : { taxes }) });
      const product = s.product({ price_in_cents: priceInCents, taxable });
      const customer = s.customer({ country: 'US' });
      const id = num(
        s.subscribe({ product_id: product, customer_id: customer, payment_collection_method: 'remittance' }),
        'subscription',
        'id',
      );
      const before = s.state;
      const preview = s.request('POST', `/subscriptions/${id}/proforma_invoices/preview.json`);
      expect(preview.status).toBe(200);
      expect(preview.state).toBe(before);
      const created = s.ok('POST', `/subscriptions/${id}/proforma_invoices.json`);
      for (const field of AMOUNTS) expect(get(preview.body, field), field).toBe(get(created, field));
      expect(get(preview.body, 'line_items')).toEqual(get(created, 'line_items'));
      expect(get(preview.body, 'taxes')).toEqual(get(created, 'taxes'));
      expect(preview.body).toEqual(created);
      // The shared pricing's sums hold on the document.
      expect(cents(get(created, 'subtotal_amount'))).toBe(priceInCents);
      expect(cents(get(created, 'total_amount'))).toBe(
        cents(get(created, 'subtotal_amount')) + cents(get(created, 'tax_amount')),
      );
      if (!taxable || rates.length === 0) expect(get(created, 'tax_amount')).toBe('0.00');
    },
  );
});
