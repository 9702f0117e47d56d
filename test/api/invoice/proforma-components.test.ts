/**
 * Proforma invoices of subscriptions with components: the proforma shows the lines and totals the next
 * renewal bills — quantity-based components at their quantity, on/off components that are on, renewing
 * prepaid components, the metered and event-based usage of the period so far (billed in arrears), with
 * the recurring coupons and taxes — and, when an advance invoice covers the period, only what its
 * renewal still bills.
 */
import { describe, expect, it } from 'vitest';
import { arr, get } from '../../helpers/api.js';
import {
  allocate,
  BEFORE_RENEWAL,
  billedLines,
  createProforma,
  invoiceTotals,
  issueAdvance,
  MIDDLE,
  previewSite,
  previewTotals,
  proformaPreview,
  renew,
  renewalPreview,
  use,
} from './proforma-fixtures.js';

const USAGE = { seats: 4, support: true, calls: 150, credits: 3, requests: 6 };

describe('proforma invoices with components', () => {
  it('bill every component kind and the usage so far, as the renewal then bills them', () => {
    const f = previewSite({ coupon: { percentage: '10' } });
    f.s.at(MIDDLE);
    use(f, USAGE);
    const proforma = createProforma(f);
    expect(arr(proforma, 'line_items').map((line) => [get(line, 'title'), get(line, 'quantity')])).toEqual([
      [expect.stringMatching(/^product-/), '1'],
      ['Seats', '4'],
      ['Support', '1'],
      ['API calls', '150'],
      ['Credits', '3'],
      ['Requests', '6'],
    ]);
    // 20 + 4 × 3.33 + 5 + 150 × 0.01 + 3 × 2 + 6 × 0.50 = 48.82; 10% off; tax on the taxable part.
    expect(proforma).toMatchObject({
      subtotal_amount: '48.82',
      discount_amount: '4.88',
      delivery_date: '2026-02-15',
      discounts: [{ code: 'RECUR', discount_amount: '4.88' }],
    });
    // The usage is billed in arrears (the period that ends), the quantities for the period ahead.
    expect(get(proforma, 'line_items', 3)).toMatchObject({
      period_range_start: '2026-01-15',
      period_range_end: '2026-02-15',
    });
    expect(get(proforma, 'line_items', 1)).toMatchObject({
      period_range_start: '2026-02-15',
      period_range_end: '2026-03-15',
    });
    const previewed = renewalPreview(f);
    expect(previewTotals(previewed)).toEqual(invoiceTotals(proforma));
    const [renewal, ...others] = renew(f);
    expect(others).toEqual([]);
    expect(get(renewal, 'role')).toBe('renewal');
    expect(billedLines([renewal])).toEqual(billedLines([proforma]));
    expect(invoiceTotals(renewal)).toEqual(invoiceTotals(proforma));
    const taxesOf = (document: unknown) =>
      arr(document, 'taxes').map((tax) => [
        get(tax, 'title'),
        get(tax, 'taxable_amount'),
        get(tax, 'tax_amount'),
      ]);
    expect(taxesOf(renewal)).toEqual(taxesOf(proforma));
    expect(taxesOf(proforma)).toEqual([['Sales tax', '31.34', '2.59']]);
  });

  it('the preview is the document create stores, components included', () => {
    const f = previewSite({ coupon: { amount_in_cents: 700 } });
    f.s.at(MIDDLE);
    use(f, USAGE);
    const previewed = proformaPreview(f);
    expect(createProforma(f)).toEqual(previewed);
    expect(get(previewed, 'discount_amount')).toBe('7.00');
  });

  it('bill neither the off on/off component, nor a prepaid one that does not renew, nor no usage', () => {
    const f = previewSite();
    f.s.at(MIDDLE);
    use(f, { seats: 0, support: false, calls: 0, credits: 0, requests: 0 });
    expect(billedLines([createProforma(f)]).map((line) => line.kind)).toEqual(['baseline']);
  });

  it('after an advance invoice: only what the covered renewal still bills (arrears, allocation changes)', () => {
    const f = previewSite({ coupon: { percentage: '10' } });
    f.s.at(MIDDLE);
    use(f, USAGE);
    issueAdvance(f);
    f.s.at(BEFORE_RENEWAL);
    allocate(f, f.seats, 6);
    const proforma = createProforma(f);
    expect(arr(proforma, 'line_items').map((line) => get(line, 'title'))).toEqual([
      'Seats',
      'API calls',
      'Requests',
    ]);
    // Two more seats than the advance invoice billed, for the whole period ahead.
    expect(get(proforma, 'line_items', 0)).toMatchObject({
      subtotal_amount: '6.66',
      quantity: '2',
      unit_price: '3.33',
    });
    expect(previewTotals(renewalPreview(f))).toEqual(invoiceTotals(proforma));
    const [arrears, ...others] = renew(f);
    expect(others).toEqual([]);
    expect(billedLines([arrears])).toEqual(billedLines([proforma]));
    expect(invoiceTotals(arrears)).toEqual(invoiceTotals(proforma));
  });

  it('after an advance invoice with nothing left to bill: an empty proforma of 0.00, and no arrears invoice', () => {
    const f = previewSite();
    f.s.at(MIDDLE);
    use(f, { ...USAGE, calls: 0, requests: 0 });
    issueAdvance(f);
    const proforma = createProforma(f);
    expect(proforma).toMatchObject({ line_items: [], subtotal_amount: '0.00', total_amount: '0.00' });
    expect(renew(f)).toEqual([]);
  });
});
