import { describe, expect, test } from 'vitest';
import { invoiceIssuedData } from '../../../src/domain/invoice/issued-event.js';
import type { Invoice, InvoiceLine, InvoiceParty } from '../../../src/domain/invoice/types.js';
import { listFromArray } from '../../../src/kernel/collection.js';

const party: InvoiceParty = {
  id: 1,
  firstName: 'Ada',
  lastName: 'Lovelace',
  organization: null,
  email: 'ada@example.com',
  vatNumber: null,
  reference: null,
};

const line = (overrides: Partial<InvoiceLine>): InvoiceLine => ({
  uid: 'li_1',
  title: 'Pro plan',
  description: 'Jan 1 – Feb 1',
  quantity: '1',
  unitPrice: '20',
  subtotal: '20',
  discount: '0',
  tax: '1.6',
  total: '21.6',
  taxable: true,
  tieredUnitPrice: false,
  periodRangeStart: '2026-01-01',
  periodRangeEnd: '2026-02-01',
  productId: 3,
  productVersion: 1,
  productPricePointId: 4,
  componentId: null,
  pricePointId: null,
  customItem: false,
  kind: 'baseline',
  taxCode: null,
  transactionId: 11,
  pricedAmount: null,
  ...overrides,
});

const invoice = (overrides: Partial<Invoice>): Invoice => ({
  id: 1,
  uid: 'inv_1',
  number: '101',
  sequenceNumber: 101,
  customerId: 1,
  subscriptionId: 2,
  status: 'open',
  role: 'renewal',
  collectionMethod: 'automatic',
  currency: 'USD',
  issueDate: '2026-01-01',
  dueDate: '2026-01-31',
  paidDate: null,
  netTerms: 30,
  memo: '',
  paymentInstructions: '',
  productName: 'Pro',
  productFamilyName: 'Plans',
  consolidationLevel: 'none',
  parentInvoiceId: null,
  subscriptionGroupId: null,
  customer: party,
  payer: party,
  sellerAddress: null,
  billingAddress: null,
  shippingAddress: null,
  lines: listFromArray([
    line({}),
    line({
      uid: 'li_2',
      title: 'Seats',
      quantity: '3',
      unitPrice: '2.5',
      subtotal: '7.5',
      tax: '0',
      taxCode: 'SW052000',
      productId: null,
      productPricePointId: null,
      componentId: 9,
      pricePointId: 10,
      customItem: true,
      periodRangeStart: null,
      periodRangeEnd: null,
    }),
  ]),
  discounts: [],
  taxes: [],
  payments: [],
  credits: [],
  history: [],
  totals: {
    subtotal: '27.5',
    discount: '0',
    tax: '1.6',
    total: '29.1',
    credit: '0',
    debit: '0',
    refund: '0.5',
    paid: '10',
    due: '19.1',
  },
  periodStartedAt: null,
  periodEndsAt: null,
  advance: false,
  voidReason: null,
  transactionTime: '2026-01-01T00:00:00Z',
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
  ...overrides,
});

describe('invoiceIssuedData', () => {
  test('presents every field of the official InvoiceIssued shape, amounts in the currency format', () => {
    expect(invoiceIssuedData(invoice({}))).toEqual({
      uid: 'inv_1',
      number: '101',
      role: 'renewal',
      due_date: '2026-01-31',
      issue_date: '2026-01-01',
      paid_date: '',
      due_amount: '19.10',
      paid_amount: '10.00',
      tax_amount: '1.60',
      refund_amount: '0.50',
      total_amount: '29.10',
      status_amount: '19.10',
      product_name: 'Pro',
      consolidation_level: 'none',
      line_items: [
        {
          uid: 'li_1',
          title: 'Pro plan',
          description: 'Jan 1 – Feb 1',
          quantity: '1',
          unit_price: '20',
          period_range_start: '2026-01-01',
          period_range_end: '2026-02-01',
          amount: '20.00',
          tax_amount: '1.60',
          tax_code: null,
          product_id: 3,
          product_price_point_id: 4,
          price_point_id: null,
          component_id: null,
          custom_item: false,
        },
        {
          uid: 'li_2',
          title: 'Seats',
          description: 'Jan 1 – Feb 1',
          quantity: '3',
          unit_price: '2.5',
          period_range_start: null,
          period_range_end: null,
          amount: '7.50',
          tax_amount: '0.00',
          tax_code: 'SW052000',
          product_id: null,
          product_price_point_id: null,
          price_point_id: 10,
          component_id: 9,
          custom_item: true,
        },
      ],
    });
  });

  test('a paid invoice has its paid date, and its status amount is what was paid', () => {
    const data = invoiceIssuedData(invoice({ status: 'paid', paidDate: '2026-01-05' }));
    expect(data.paid_date).toBe('2026-01-05');
    expect(data.status_amount).toBe('10.00');
    expect(data.due_amount).toBe('19.10');
  });

  test('amounts follow the minor unit of the invoice currency', () => {
    const data = invoiceIssuedData(
      invoice({ currency: 'JPY', lines: listFromArray([line({ subtotal: '1200', tax: '96' })]) }),
    );
    expect(data.total_amount).toBe('29');
    expect(data.line_items).toHaveLength(1);
    expect(data.line_items[0]?.amount).toBe('1200');
    expect(data.line_items[0]?.tax_amount).toBe('96');
  });

  test('an invoice without lines has no line items', () => {
    expect(invoiceIssuedData(invoice({ lines: listFromArray([]) })).line_items).toEqual([]);
  });
});
