/**
 * Fixtures for allocation, usage and subscription component tests through `handle()`: a product and
 * components in one family, a subscription signed up at T0 (monthly: [Jan 15 12:00, Feb 15 12:00) UTC,
 * 31 days), and short-hands for the allocation calls.
 */
import { expect } from 'vitest';
import type { SiteConfig } from '../../../src/index.js';
import { arr, get, num, type Site, site, str } from '../../helpers/api.js';
import { createComponent, type Kind } from '../../helpers/components.js';

/** The period of a subscription signed up at T0. */
export const PERIOD_START = '2026-01-15T12:00:00Z';
export const PERIOD_END = '2026-02-15T12:00:00Z';
/** 21 of the period's 31 days remain. */
export const MIDDLE = '2026-01-25T12:00:00Z';
/** One second of the period remains. */
export const LAST_SECOND = '2026-02-15T11:59:59Z';

export interface Fixture {
  readonly s: Site;
  readonly family: number;
  readonly product: number;
}

/** A site with a $10 monthly product in a family of its own. */
export function fixture(config: SiteConfig = {}, now?: string): Fixture {
  const s = site(config, now);
  const family = s.family();
  const product = s.product({ price_in_cents: 1000 }, family);
  return { s, family, product };
}

/** A component of a kind in the fixture's family; returns its id. */
export const component = (f: Fixture, kind: Kind, fields: Record<string, unknown> = {}): number =>
  createComponent(f.s, kind, fields, f.family);

/** A subscription to the fixture's product (card ending in `lastDigit`); returns its id. */
export const subscribe = (f: Fixture, lastDigit: 1 | 2 | 4 = 1): number =>
  f.s.subscribed(f.product, lastDigit).id;

export const allocationPath = (subscription: number, componentId: number | string) =>
  `/subscriptions/${subscription}/components/${componentId}/allocations.json`;

/** `POST …/components/{id}/allocations.json`; returns the `allocation`. */
export function allocate(
  s: Site,
  subscription: number,
  componentId: number | string,
  fields: Record<string, unknown>,
): Record<string, unknown> {
  const body = s.ok('POST', allocationPath(subscription, componentId), { allocation: fields });
  return get(body, 'allocation') as Record<string, unknown>;
}

/** `POST …/allocations.json`; returns the allocations. */
export function allocateMany(
  s: Site,
  subscription: number,
  body: Record<string, unknown>,
): Record<string, unknown>[] {
  const answer = s.ok('POST', `/subscriptions/${subscription}/allocations.json`, body);
  return arr(answer).map((item) => get(item, 'allocation') as Record<string, unknown>);
}

/** `POST …/allocations/preview.json`, which must leave the state object untouched; returns the preview. */
export function preview(
  s: Site,
  subscription: number,
  body: Record<string, unknown>,
): Record<string, unknown> {
  const before = s.state;
  const called = s.request('POST', `/subscriptions/${subscription}/allocations/preview.json`, body);
  expect(called.status, JSON.stringify(called.body)).toBe(200);
  expect(called.state).toBe(before);
  return get(called.body, 'allocation_preview') as Record<string, unknown>;
}

/** The subscription's service credit, in cents. */
export const creditCents = (s: Site, subscription: number): number =>
  num(s.subscription(subscription), 'credit_balance_in_cents');

/** The subscription's invoices of a role, oldest first. */
export const invoicesOf = (s: Site, subscription: number, role: string): unknown[] =>
  s.invoices(subscription).filter((invoice) => get(invoice, 'role') === role);

/** The subtotals of an invoice's lines of a component. */
export const componentLines = (invoice: unknown, componentId: number): unknown[] =>
  arr(invoice, 'line_items').filter((line) => get(line, 'component_id') === componentId);

/** Cents of a decimal amount string. */
export const toCents = (amount: string): number => Math.round(Number(amount) * 100);

/** The amount a line item's subtotal shows. */
export const subtotalOf = (line: unknown): string => str(line, 'subtotal_amount');
