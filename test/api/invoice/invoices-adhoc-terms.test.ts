/** Create Invoice (SPEC 2.2): taxes, issue and due dates in the site zone, addresses, memo and instructions. */
import { describe, expect, it } from 'vitest';
import type { SiteConfig } from '../../../src/index.js';
import { arr, get, site } from '../../helpers/api.js';
import {
  createAdHoc,
  custom,
  expectIdentities,
  fields,
  invoicesPath,
  refused,
  remittance,
} from '../../helpers/invoices.js';

const taxedLine = custom('Taxed', 2, '50', { taxable: true });
const plainLine = custom('Plain', 1, '10');

describe('ad hoc invoice taxes', () => {
  it('a site tax without a country taxes the taxable custom lines only', () => {
    const s = site({ taxes: [{ name: 'Sales tax', percentage: '6.75' }] });
    const { id } = remittance(s);
    const invoice = createAdHoc(s, id, { line_items: [taxedLine, plainLine] });
    expect(invoice).toMatchObject({
      subtotal_amount: '110.00',
      tax_amount: '6.75',
      total_amount: '116.75',
      line_items: [{ tax_amount: '6.75' }, { tax_amount: '0.00', total_amount: '10.00' }],
      taxes: [
        {
          title: 'Sales tax',
          percentage: '6.75',
          taxable_amount: '100.00',
          tax_amount: '6.75',
          source_type: 'Tax',
        },
      ],
    });
    expectIdentities(invoice);
  });

  it('taxes the amount left after discounts, rounding the invoice tax once', () => {
    const s = site({ taxes: [{ name: 'NC', percentage: '6.75' }] });
    const { id } = remittance(s);
    const lines = [99, 15.5, 47, 14].map((price, index) =>
      custom(`L${index}`, 1, String(price), { taxable: true }),
    );
    const invoice = createAdHoc(s, id, { line_items: lines, coupons: [{ code: 'MULTI', percentage: '10' }] });
    expect(invoice).toMatchObject({
      subtotal_amount: '175.50',
      discount_amount: '17.55',
      tax_amount: '10.66',
      total_amount: '168.61',
      taxes: [{ taxable_amount: '157.95', tax_amount: '10.66' }],
    });
    expectIdentities(invoice);
  });

  it('a site tax with a country applies only to customers (or destinations) there', () => {
    const s = site({
      taxes: [
        { name: 'US tax', percentage: '10', country: 'US' },
        { name: 'Any', percentage: '1' },
      ],
    });
    const us = remittance(s, { country: 'US' }).id;
    const fr = remittance(s, { country: 'FR' }).id;
    const body = { line_items: [taxedLine] };
    expect(createAdHoc(s, us, body)).toMatchObject({
      tax_amount: '11.00',
      taxes: [{ title: 'US tax' }, { title: 'Any' }],
    });
    expect(createAdHoc(s, fr, body)).toMatchObject({ tax_amount: '1.00', taxes: [{ title: 'Any' }] });
    const shipped = createAdHoc(s, fr, { ...body, shipping_address: { first_name: 'Ada', country: 'US' } });
    expect(shipped).toMatchObject({ tax_amount: '11.00', shipping_address: { country: 'US' } });
  });

  it('a tax-exempt customer pays no tax', () => {
    const s = site({ taxes: [{ name: 'VAT', percentage: '20' }] });
    const { id } = remittance(s, { tax_exempt: true });
    const invoice = createAdHoc(s, id, { line_items: [taxedLine] });
    expect(invoice).toMatchObject({ tax_amount: '0.00', total_amount: '100.00', taxes: [] });
  });

  it('a taxable line is not taxed when the site calculates no taxes', () => {
    const s = site();
    const { id } = remittance(s);
    expect(createAdHoc(s, id, { line_items: [taxedLine] })).toMatchObject({ tax_amount: '0.00', taxes: [] });
  });

  it('a catalog product line is taxed as the product says', () => {
    const s = site({ taxes: [{ name: 'VAT', percentage: '20' }] });
    s.product({ handle: 'taxed', price_in_cents: 1000, taxable: true });
    s.product({ handle: 'free', price_in_cents: 1000 });
    const { id } = remittance(s);
    const invoice = createAdHoc(s, id, {
      line_items: [
        { product_id: 'taxed', quantity: 1 },
        { product_id: 'free', quantity: 1, taxable: true },
      ],
    });
    expect(arr(invoice, 'line_items').map((line) => get(line, 'tax_amount'))).toEqual(['2.00', '0.00']);
  });
});

describe('ad hoc invoice dates', () => {
  it('takes an issue date of today or earlier; tomorrow is refused under issue_date', () => {
    const s = site();
    const { id } = remittance(s);
    expect(createAdHoc(s, id, { line_items: [plainLine] })).toMatchObject({
      issue_date: '2026-01-15',
      due_date: '2026-01-15',
    });
    expect(createAdHoc(s, id, { line_items: [plainLine], issue_date: '2026-01-15' })).toMatchObject({
      issue_date: '2026-01-15',
    });
    expect(createAdHoc(s, id, { line_items: [plainLine], issue_date: '2025-12-01' })).toMatchObject({
      issue_date: '2025-12-01',
    });
    const errors = refused(s, 'POST', invoicesPath(id), {
      line_items: [plainLine],
      issue_date: '2026-01-16',
    });
    expect(errors).toEqual({ issue_date: [expect.any(String)] });
    expect(
      fields(refused(s, 'POST', invoicesPath(id), { line_items: [plainLine], issue_date: '15/01/2026' })),
    ).toEqual(['issue_date']);
  });

  it.each<[string, SiteConfig['timeZone'], string, string]>([
    // 12:00Z on the 15th is 01:00 on the 16th in Apia (UTC+13): the 16th is today there.
    ['ahead of UTC', 'Pacific/Apia', '2026-01-16', '2026-01-17'],
    // 05:00Z on the 15th is 18:00 on the 14th in Pago Pago (UTC−11): the 15th is still tomorrow there.
    ['behind UTC', 'Pacific/Pago_Pago', '2026-01-14', '2026-01-15'],
  ])('validates the issue date in the site zone (%s)', (_name, timeZone, today, tomorrow) => {
    const s = site(
      { timeZone: timeZone ?? 'UTC' },
      timeZone === 'Pacific/Apia' ? '2026-01-15T12:00:00Z' : '2026-01-15T05:00:00Z',
    );
    const { id } = remittance(s);
    expect(createAdHoc(s, id, { line_items: [plainLine] })).toMatchObject({
      issue_date: today,
      due_date: today,
    });
    expect(createAdHoc(s, id, { line_items: [plainLine], issue_date: today })).toMatchObject({
      issue_date: today,
    });
    expect(
      fields(refused(s, 'POST', invoicesPath(id), { line_items: [plainLine], issue_date: tomorrow })),
    ).toEqual(['issue_date']);
  });

  it('net terms set the due date after the issue date; without them the due date is the creation date', () => {
    const s = site();
    const { id } = remittance(s);
    expect(createAdHoc(s, id, { line_items: [plainLine], net_terms: 30 })).toMatchObject({
      issue_date: '2026-01-15',
      due_date: '2026-02-14',
      net_terms: 30,
    });
    expect(
      createAdHoc(s, id, { line_items: [plainLine], net_terms: '10', issue_date: '2026-01-01' }),
    ).toMatchObject({
      due_date: '2026-01-11',
    });
    expect(createAdHoc(s, id, { line_items: [plainLine], issue_date: '2026-01-01' })).toMatchObject({
      issue_date: '2026-01-01',
      due_date: '2026-01-15',
    });
    for (const net_terms of [-1, 1.5, 'soon'])
      expect(fields(refused(s, 'POST', invoicesPath(id), { line_items: [plainLine], net_terms }))).toEqual([
        'net_terms',
      ]);
  });
});

describe('ad hoc invoice addresses, memo and payment instructions', () => {
  it('each address needs a first_name; the fields given are shown', () => {
    const s = site();
    const { id } = remittance(s);
    for (const key of ['seller_address', 'billing_address', 'shipping_address']) {
      const errors = refused(s, 'POST', invoicesPath(id), {
        line_items: [plainLine],
        [key]: { city: 'Paris' },
      });
      expect(fields(errors), key).toEqual([`${key}.first_name`]);
    }
    const address = {
      first_name: 'Ada',
      address: '1 Main St',
      address_2: 'Apt 2',
      city: 'Springfield',
      state: 'IL',
      zip: '62701',
      country: 'US',
    };
    const shown = {
      street: '1 Main St',
      line2: 'Apt 2',
      city: 'Springfield',
      state: 'IL',
      zip: '62701',
      country: 'US',
    };
    const invoice = createAdHoc(s, id, {
      line_items: [plainLine],
      seller_address: address,
      billing_address: address,
      shipping_address: { ...address, city: 'Shelbyville' },
    });
    expect(invoice).toMatchObject({
      seller: { address: shown },
      billing_address: shown,
      shipping_address: { ...shown, city: 'Shelbyville' },
    });
  });

  it('memo and payment instructions override the site defaults', () => {
    const s = site({ invoiceDefaults: { memo: 'Thanks!', paymentInstructions: 'Pay by wire' } });
    const { id } = remittance(s);
    expect(createAdHoc(s, id, { line_items: [plainLine] })).toMatchObject({
      memo: 'Thanks!',
      payment_instructions: 'Pay by wire',
    });
    expect(
      createAdHoc(s, id, {
        line_items: [plainLine],
        memo: 'Custom memo',
        payment_instructions: 'Pay by check',
      }),
    ).toMatchObject({ memo: 'Custom memo', payment_instructions: 'Pay by check' });
  });

  it('refuses an unknown status and reports several problems at once', () => {
    const s = site();
    const { id } = remittance(s);
    expect(fields(refused(s, 'POST', invoicesPath(id), { line_items: [plainLine], status: 'paid' }))).toEqual(
      ['status'],
    );
    const errors = refused(s, 'POST', invoicesPath(id), {
      line_items: [
        { title: 'A', quantity: 1 },
        custom('B', 1, '1', { period_range_start: '2026-02-01', period_range_end: '2026-01-01' }),
      ],
      issue_date: '2030-01-01',
      billing_address: {},
    });
    // The request's shape is checked first: those problems are all reported together.
    expect(fields(errors).sort()).toEqual(['billing_address.first_name', 'line_items[1].period_range_end']);
    const resolved = refused(s, 'POST', invoicesPath(id), {
      line_items: [
        { title: 'A', quantity: 1 },
        { product_id: 'nope', quantity: 1 },
      ],
      issue_date: '2030-01-01',
    });
    expect(fields(resolved).sort()).toEqual([
      'issue_date',
      'line_items[0].unit_price',
      'line_items[1].product_id',
    ]);
  });
});
