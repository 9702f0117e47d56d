/**
 * Fixtures for ad hoc invoice, issue, payment and advance invoice tests through `handle()`: subscriptions
 * of each collection kind, create/update helpers that unwrap `{invoice}`, the stored record of an invoice
 * (for its history), and the wire-level totals identity.
 */
import { expect } from 'vitest';
import { handle, type Invoice, type PaymentGateway, type SiteState } from '../../src/index.js';
import { tableRows } from '../../src/kernel/collection.js';
import { arr, type Called, get, type Method, num, type Site, show, str } from './api.js';

export type Body = Record<string, unknown>;

/** A custom line item request. */
export const custom = (
  title: string,
  quantity: string | number,
  unitPrice: string,
  extra: Body = {},
): Body => ({
  title,
  quantity,
  unit_price: unitPrice,
  ...extra,
});

export const invoicesPath = (id: number): string => `/subscriptions/${id}/invoices.json`;
export const invoicePath = (id: number, uid: string): string => `/subscriptions/${id}/invoices/${uid}.json`;

export interface Subscribed {
  readonly id: number;
  readonly customer: number;
  readonly product: number;
}

/** A remittance subscription ($10 monthly product unless given) of a new customer: nothing is charged. */
export function remittance(s: Site, customerFields: Body = {}, fields: Body = {}): Subscribed {
  const product = typeof fields['product_id'] === 'number' ? fields['product_id'] : s.product();
  const customer = s.customer(customerFields);
  const body = s.subscribe({
    product_id: product,
    customer_id: customer,
    payment_collection_method: 'remittance',
    ...fields,
  });
  return { id: num(body, 'subscription', 'id'), customer, product };
}

/**
 * An automatic subscription with a card ending in `digit` (2 authorizes but never pays). The product is
 * free unless a price is given, so a failing card can still sign up.
 */
export function automatic(s: Site, digit: 1 | 2 = 1, priceInCents = 0): Subscribed {
  const product = s.product({ price_in_cents: priceInCents });
  const { id, customer } = s.subscribed(product, digit);
  return { id, customer, product };
}

/** Creates an ad hoc invoice (201, `{invoice}`) and returns the invoice. */
export function createAdHoc(s: Site, id: number, invoice: Body): unknown {
  const body = s.ok('POST', invoicesPath(id), { invoice });
  expect(Object.keys(body as object)).toEqual(['invoice']);
  return get(body, 'invoice');
}

/** Updates a draft (200, `{invoice}`) and returns the invoice. */
export function updateAdHoc(s: Site, id: number, uid: string, invoice: Body): unknown {
  return get(s.ok('PUT', invoicePath(id, uid), { invoice }, 200), 'invoice');
}

/** A refused create or update: the `{errors: {field: [...]}}` map; the state object is untouched. */
export function refused(s: Site, method: Method, path: string, invoice: unknown, status = 422): unknown {
  const body = s.fail(method, path, { invoice }, status);
  return get(body, 'errors');
}

/** The field names of a `{errors: {field: [...]}}` body's map. */
export const fields = (errors: unknown): string[] =>
  errors !== null && typeof errors === 'object' && !Array.isArray(errors) ? Object.keys(errors) : [];

/** Issues an invoice (200, bare invoice). */
export const issue = (s: Site, uid: string, body?: Body): unknown =>
  s.ok('POST', `/invoices/${uid}/issue.json`, body, 200);

/** The stored record of an invoice, for what the wire does not show (history). */
export function stored(state: SiteState, uid: string): Invoice {
  for (const invoice of tableRows(state.tables.invoices)) if (invoice.uid === uid) return invoice;
  throw new Error(`no invoice ${uid}`);
}

/** The kinds of an invoice's history entries. */
export const historyKinds = (state: SiteState, uid: string): string[] =>
  stored(state, uid).history.map((entry) => entry.kind);

/** The balances of a subscription, in cents. */
export function balances(s: Site, id: number): { credit: number; prepayment: number } {
  const subscription = s.subscription(id);
  return {
    credit: num(subscription, 'credit_balance_in_cents'),
    prepayment: num(subscription, 'prepayment_balance_in_cents'),
  };
}

export const prepay = (s: Site, id: number, amount: string): unknown =>
  s.ok('POST', `/subscriptions/${id}/prepayments.json`, { prepayment: { amount, memo: 'advance' } });

export const serviceCredit = (s: Site, id: number, amount: string): unknown =>
  s.ok('POST', `/subscriptions/${id}/service_credits.json`, { service_credit: { amount, memo: 'goodwill' } });

/** A wire amount as an exact integer count of 10⁻¹⁰ (any currency's decimals fit). */
export function units(value: unknown): bigint {
  const text = String(value);
  const match = /^(-?)(\d+)(?:\.(\d{1,10}))?$/.exec(text);
  if (match === null) throw new Error(`not a decimal amount: ${text}`);
  const magnitude = BigInt(match[2] ?? '0') * 10n ** 10n + BigInt((match[3] ?? '').padEnd(10, '0'));
  return match[1] === '-' ? -magnitude : magnitude;
}

const total = (items: unknown[], field: string): bigint =>
  items.reduce<bigint>((sum, item) => sum + units(get(item, field)), 0n);

/**
 * The wire totals identities: total = subtotal − discount + tax, due = total − credit − paid, the
 * invoice subtotal is the sum of the lines, the discounts and taxes add up to the invoice's and their
 * breakouts add up to each of them exactly, no line total is negative.
 */
export function expectIdentities(invoice: unknown): void {
  const at = (field: string) => units(str(invoice, field));
  const label = show(invoice);
  expect(at('total_amount'), label).toBe(at('subtotal_amount') - at('discount_amount') + at('tax_amount'));
  expect(at('due_amount'), label).toBe(at('total_amount') - at('credit_amount') - at('paid_amount'));
  const lines = arr(invoice, 'line_items');
  expect(total(lines, 'subtotal_amount'), label).toBe(at('subtotal_amount'));
  for (const line of lines) expect(units(get(line, 'total_amount')) >= 0n, label).toBe(true);
  const discounts = arr(invoice, 'discounts');
  expect(total(discounts, 'discount_amount'), label).toBe(at('discount_amount'));
  for (const discount of discounts)
    expect(total(arr(discount, 'line_item_breakouts'), 'discount_amount'), label).toBe(
      units(get(discount, 'discount_amount')),
    );
  const taxes = arr(invoice, 'taxes');
  expect(total(taxes, 'tax_amount'), label).toBe(at('tax_amount'));
  for (const tax of taxes)
    expect(total(arr(tax, 'line_item_breakouts'), 'tax_amount'), label).toBe(units(get(tax, 'tax_amount')));
}

/** One request with a host gateway (CONTRACT 5), threading the site's state. */
export function withGateway(
  s: Site,
  payments: PaymentGateway,
  method: Method,
  path: string,
  body?: unknown,
): Called {
  const result = handle(
    s.state,
    { method, path, headers: s.headers, ...(body === undefined ? {} : { body }) },
    { now: s.now, payments },
  );
  s.state = result.state;
  return {
    state: result.state,
    status: result.response.status,
    body: result.response.body,
    events: result.events,
    result,
  };
}

/** A host gateway that declines every payment. */
export const declining: PaymentGateway = () => ({ success: false, message: 'Declined by the host' });
