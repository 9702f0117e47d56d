/**
 * Fixtures for advance invoices with components through `handle()`: a $20 taxable monthly product with
 * a $3.33 seat component (quantity-based), a $5 support component (on/off) and a metered API-call
 * component at $0.01, a subscription signed up at T0 (period [Jan 15, Feb 15) at noon UTC), and the
 * invoices of the period that starts on February 15.
 */
import type { SiteConfig, SiteEvent } from '../../../src/index.js';
import { arr, get, num, type Site, site, str } from '../../helpers/api.js';
import { createComponent } from '../../helpers/components.js';

export const RENEWAL = '2026-02-15T12:00:00Z';
export const MIDDLE = '2026-01-25T12:00:00Z';
export const AFTER_ISSUE = '2026-02-01T12:00:00Z';

export const paths = (id: number) => ({
  issue: `/subscriptions/${id}/advance_invoice/issue.json`,
  read: `/subscriptions/${id}/advance_invoice.json`,
  void: `/subscriptions/${id}/advance_invoice/void.json`,
  preview: `/subscriptions/${id}/renewals/preview.json`,
});

export interface ComponentSite {
  readonly s: Site;
  readonly id: number;
  readonly seats: number;
  readonly support: number;
  readonly calls: number;
}

export interface ComponentSiteOptions {
  readonly config?: SiteConfig;
  /** A recurring coupon the subscription signs up with. */
  readonly coupon?: Record<string, unknown>;
}

export function componentSite(options: ComponentSiteOptions = {}): ComponentSite {
  const s = site(options.config ?? {});
  const family = s.family();
  const product = s.product({ price_in_cents: 2000, taxable: true }, family);
  const seats = createComponent(
    s,
    'quantity_based_component',
    { name: 'Seats', unit_name: 'seat', unit_price: '3.33', taxable: true },
    family,
  );
  const support = createComponent(s, 'on_off_component', { name: 'Support', unit_price: '5' }, family);
  const calls = createComponent(
    s,
    'metered_component',
    { name: 'API calls', unit_name: 'call', unit_price: '0.01', taxable: true },
    family,
  );
  if (options.coupon !== undefined)
    s.ok('POST', `/product_families/${family}/coupons.json`, {
      coupon: { name: 'Recurring', code: 'RECUR', recurring: true, ...options.coupon },
    });
  const customer = s.customer();
  const profile = s.card(customer);
  const body = s.subscribe({
    product_id: product,
    customer_id: customer,
    payment_profile_id: profile,
    ...(options.coupon === undefined ? {} : { coupon_code: 'RECUR' }),
  });
  return { s, id: num(body, 'subscription', 'id'), seats, support, calls };
}

export interface Usage {
  readonly seats: number;
  readonly support: boolean;
  readonly calls: number;
}

/** Allocates seats and support and records API calls at the current instant. */
export function use(f: ComponentSite, usage: Usage): void {
  const allocation = (component: number, quantity: number) =>
    f.s.ok('POST', `/subscriptions/${f.id}/components/${component}/allocations.json`, {
      allocation: { quantity },
    });
  allocation(f.seats, usage.seats);
  allocation(f.support, usage.support ? 1 : 0);
  if (usage.calls > 0)
    f.s.ok('POST', `/subscriptions/${f.id}/components/${f.calls}/usages.json`, {
      usage: { quantity: usage.calls },
    });
}

/** The invoices of the subscription created at or after `from` (by number order), oldest first. */
export const invoicesSince = (f: ComponentSite, count: number): unknown[] => f.s.invoices(f.id).slice(count);

/** A line as compared across invoices: what it charges for which days. */
export const lineKey = (line: unknown): string =>
  [
    get(line, 'product_id') ?? '',
    get(line, 'component_id') ?? '',
    get(line, 'quantity'),
    str(line, 'subtotal_amount'),
    get(line, 'period_range_start'),
    get(line, 'period_range_end'),
  ].join('|');

export const linesOf = (invoices: readonly unknown[]): string[] =>
  invoices.flatMap((invoice) => arr(invoice, 'line_items').map(lineKey)).sort();

/** Cents of a decimal amount string. */
export const cents = (amount: unknown): number => Math.round(Number(amount) * 100);

export const sumOf = (invoices: readonly unknown[], field: string): number =>
  invoices.reduce((total: number, invoice) => total + cents(get(invoice, field)), 0);

/**
 * The same site and usage with and without an advance invoice (`issue` runs on the covered twin only),
 * then `later` on both, both renewed on February 15; returns the invoices each made from `issue` on.
 */
export function twins(
  options: ComponentSiteOptions,
  usage: Usage,
  issue: (f: ComponentSite) => void,
  later: (f: ComponentSite) => void = () => {},
): { alone: unknown[]; covered: unknown[]; events: readonly SiteEvent[]; f: ComponentSite } {
  const alone = componentSite(options);
  const covered = componentSite(options);
  for (const f of [alone, covered]) {
    f.s.at(MIDDLE);
    use(f, usage);
  }
  const counts = [alone, covered].map((f) => f.s.invoices(f.id).length);
  issue(covered);
  later(alone);
  later(covered);
  alone.s.advance(RENEWAL);
  const events = covered.s.advance(RENEWAL);
  return {
    alone: invoicesSince(alone, counts[0] ?? 0),
    covered: invoicesSince(covered, counts[1] ?? 0),
    events,
    f: covered,
  };
}
