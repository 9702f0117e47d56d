/**
 * Fixtures for comparing the documents that describe a subscription's next renewal (proforma invoice,
 * its preview, the renewal preview) with what the renewal then bills, through `handle()`.
 *
 * The site taxes at 8.25% and knows the `api-calls` event stream. A taxable $20 monthly product has five
 * components, one of each kind: seats (quantity-based, $3.33, taxable), support (on/off, $5), API calls
 * (metered, $0.01, taxable), credits (prepaid, $2, renewing its allocation) and requests (event-based,
 * $0.50 per event). The subscription signs up at T0 (period [Jan 15, Feb 15) at noon UTC) with a card,
 * and with the recurring coupon RECUR when one is asked for.
 */
import { expect } from 'vitest';
import type { SiteConfig } from '../../../src/index.js';
import { arr, get, num, type Site, show, site } from '../../helpers/api.js';
import { createComponent } from '../../helpers/components.js';

export const MIDDLE = '2026-01-25T12:00:00Z';
export const BEFORE_RENEWAL = '2026-02-10T12:00:00Z';
/** A little after the first renewal (February 15 at noon). */
export const AFTER_RENEWAL = '2026-02-16T00:00:00Z';

export interface Usage {
  readonly seats: number;
  readonly support: boolean;
  readonly calls: number;
  readonly credits: number;
  readonly requests: number;
}

export interface PreviewSite {
  readonly s: Site;
  readonly id: number;
  readonly seats: number;
  readonly support: number;
  readonly calls: number;
  readonly credits: number;
  readonly requests: number;
}

const CONFIG: SiteConfig = {
  taxes: [{ name: 'Sales tax', percentage: '8.25' }],
  metrics: [{ id: 7, name: 'API requests', streamHandle: 'api-calls', aggregation: 'count' }],
};

export interface PreviewSiteOptions {
  /** Fields of a coupon create: the subscription then uses the recurring coupon RECUR. */
  readonly coupon?: Record<string, unknown>;
  /** Pay by remittance instead of the card, so that invoices stay open. */
  readonly remittance?: boolean;
}

/** The site described above. */
export function previewSite(options: PreviewSiteOptions = {}): PreviewSite {
  const { coupon } = options;
  const s = site(CONFIG);
  const family = s.family();
  const product = s.product({ price_in_cents: 2000, taxable: true }, family);
  const make = (kind: Parameters<typeof createComponent>[1], fields: Record<string, unknown>) =>
    createComponent(s, kind, fields, family);
  const seats = make('quantity_based_component', { name: 'Seats', unit_price: '3.33', taxable: true });
  const support = make('on_off_component', { name: 'Support', unit_price: '5' });
  const calls = make('metered_component', { name: 'API calls', unit_price: '0.01', taxable: true });
  const credits = make('prepaid_usage_component', {
    name: 'Credits',
    unit_price: '2',
    renew_prepaid_allocation: true,
  });
  const requests = make('event_based_component', {
    name: 'Requests',
    unit_price: '0.5',
    event_based_billing_metric_id: 7,
  });
  if (coupon !== undefined)
    s.ok('POST', `/product_families/${family}/coupons.json`, {
      coupon: { name: 'Recurring', code: 'RECUR', recurring: true, ...coupon },
    });
  const customer = s.customer();
  const body = s.subscribe({
    product_id: product,
    customer_id: customer,
    ...(options.remittance === true
      ? { payment_collection_method: 'remittance' }
      : { payment_profile_id: s.card(customer) }),
    ...(coupon === undefined ? {} : { coupon_code: 'RECUR' }),
  });
  return { s, id: num(body, 'subscription', 'id'), seats, support, calls, credits, requests };
}

/** Sets the quantity of a quantity-based, on/off or prepaid component. */
export const allocate = (f: PreviewSite, component: number, quantity: number): unknown =>
  f.s.ok('POST', `/subscriptions/${f.id}/components/${component}/allocations.json`, {
    allocation: { quantity },
  });

/** Allocates the quantities of `usage` and records its metered and event-based usage, now. */
export function use(f: PreviewSite, usage: Usage): void {
  allocate(f, f.seats, usage.seats);
  allocate(f, f.support, usage.support ? 1 : 0);
  allocate(f, f.credits, usage.credits);
  if (usage.calls > 0)
    f.s.ok('POST', `/subscriptions/${f.id}/components/${f.calls}/usages.json`, {
      usage: { quantity: usage.calls },
    });
  if (usage.requests > 0)
    f.s.ok(
      'POST',
      '/events/api-calls/bulk.json',
      Array.from({ length: usage.requests }, () => ({ svc: { subscription_id: f.id } })),
    );
}

export const issueAdvance = (f: PreviewSite): unknown =>
  f.s.ok('POST', `/subscriptions/${f.id}/advance_invoice/issue.json`, {});

/** A POST that must answer 200, record nothing and leave the very same state object; returns its body. */
function pure(s: Site, path: string): unknown {
  const before = s.state;
  const called = s.request('POST', path);
  expect(called.status, show(called.body)).toBe(200);
  expect(called.state).toBe(before);
  expect(called.events).toEqual([]);
  return called.body;
}

export const proformaPreview = (f: PreviewSite): unknown =>
  pure(f.s, `/subscriptions/${f.id}/proforma_invoices/preview.json`);

export const renewalPreview = (f: PreviewSite): unknown =>
  get(pure(f.s, `/subscriptions/${f.id}/renewals/preview.json`), 'renewal_preview');

export const createProforma = (f: PreviewSite): unknown =>
  f.s.ok('POST', `/subscriptions/${f.id}/proforma_invoices.json`, undefined, 201);

/** Cents of a decimal amount string. */
export const cents = (amount: unknown): number => Math.round(Number(amount) * 100);

export interface Totals {
  readonly subtotal: number;
  readonly discount: number;
  readonly tax: number;
  readonly total: number;
}

/** The totals of an invoice or a proforma invoice (amount strings), in cents. */
export const invoiceTotals = (invoice: unknown): Totals => ({
  subtotal: cents(get(invoice, 'subtotal_amount')),
  discount: cents(get(invoice, 'discount_amount')),
  tax: cents(get(invoice, 'tax_amount')),
  total: cents(get(invoice, 'total_amount')),
});

/** The totals of a renewal preview (`*_in_cents`). */
export const previewTotals = (preview: unknown): Totals => ({
  subtotal: num(preview, 'subtotal_in_cents'),
  discount: num(preview, 'total_discount_in_cents'),
  tax: num(preview, 'total_tax_in_cents'),
  total: num(preview, 'total_in_cents'),
});

/** The totals of what several invoices bill together (none: all 0). */
export const summed = (invoices: readonly unknown[]): Totals =>
  invoices.map(invoiceTotals).reduce(
    (sum, each) => ({
      subtotal: sum.subtotal + each.subtotal,
      discount: sum.discount + each.discount,
      tax: sum.tax + each.tax,
      total: sum.total + each.total,
    }),
    { subtotal: 0, discount: 0, tax: 0, total: 0 },
  );

/** A line of an invoice or a proforma invoice as compared across documents: what it bills, for which days. */
export const billedLine = (line: unknown) => ({
  title: get(line, 'title'),
  description: get(line, 'description'),
  kind: get(line, 'kind'),
  quantity: get(line, 'quantity'),
  unit_price: get(line, 'unit_price'),
  subtotal: get(line, 'subtotal_amount'),
  discount: get(line, 'discount_amount'),
  tax: get(line, 'tax_amount'),
  component_id: get(line, 'component_id'),
  price_point_id: get(line, 'price_point_id'),
  product_id: get(line, 'product_id'),
  period_range_start: get(line, 'period_range_start'),
  period_range_end: get(line, 'period_range_end'),
});

export const billedLines = (invoices: readonly unknown[]) =>
  invoices.flatMap((invoice) => arr(invoice, 'line_items').map(billedLine));

/** A renewal preview's lines in cents, as comparable with an invoice's lines. */
export const previewLineCents = (preview: unknown): unknown[] =>
  arr(preview, 'line_items').map((line) => [get(line, 'component_id'), get(line, 'amount_in_cents')]);

export const invoiceLineCents = (invoices: readonly unknown[]): unknown[] =>
  invoices.flatMap((invoice) =>
    arr(invoice, 'line_items').map((line) => [
      get(line, 'component_id') ?? 0,
      cents(get(line, 'subtotal_amount')),
    ]),
  );

/** Lets the renewal of February 15 happen; returns the invoices it issued (none when nothing was due). */
export function renew(f: PreviewSite): unknown[] {
  const before = f.s.invoices(f.id).length;
  f.s.advance(AFTER_RENEWAL);
  return f.s.invoices(f.id).slice(before);
}
