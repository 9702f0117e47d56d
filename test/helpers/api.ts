/**
 * Shared fixtures for tests that go through the public `handle()`: a pure `call` helper, a small
 * mutable `Site` builder that threads the state and the clock, and typed accessors for response bodies.
 * Every instant is written with an explicit zone, so nothing depends on the machine's `TZ`.
 */
import { expect } from 'vitest';
import {
  type ApiRequest,
  advance,
  createSite,
  type HandleResult,
  handle,
  type SiteConfig,
  type SiteEvent,
  type SiteState,
} from '../../src/index.js';

/** The default instant of a test: a Thursday in January, at noon UTC. */
export const T0 = '2026-01-15T12:00:00Z';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Called {
  /** The state after the call (the very input object when nothing changed). */
  readonly state: SiteState;
  readonly status: number;
  readonly body: unknown;
  readonly events: readonly SiteEvent[];
  readonly result: HandleResult;
}

/** Extra request fields: headers, a query object. */
export type Extra = Partial<Pick<ApiRequest, 'headers' | 'query'>>;

/** One request through `handle()`. */
export function call(
  state: SiteState,
  method: Method | string,
  path: string,
  body?: unknown,
  now: string | Date = T0,
  extra: Extra = {},
): Called {
  const request: ApiRequest = { method, path, ...(body === undefined ? {} : { body }), ...extra };
  const result = handle(state, request, { now });
  return {
    state: result.state,
    status: result.response.status,
    body: result.response.body,
    events: result.events,
    result,
  };
}

/** A value at a path in a response body, or undefined. */
export function get(value: unknown, ...path: (string | number)[]): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string | number, unknown>)[key];
  }
  return current;
}

/** A number at a path (fails the test otherwise). */
export function num(value: unknown, ...path: (string | number)[]): number {
  const found = get(value, ...path);
  if (typeof found !== 'number') throw new Error(`expected a number at ${path.join('.')}: ${show(value)}`);
  return found;
}

/** A string at a path (fails the test otherwise). */
export function str(value: unknown, ...path: (string | number)[]): string {
  const found = get(value, ...path);
  if (typeof found !== 'string') throw new Error(`expected a string at ${path.join('.')}: ${show(value)}`);
  return found;
}

/** An array at a path (fails the test otherwise). */
export function arr(value: unknown, ...path: (string | number)[]): unknown[] {
  const found = get(value, ...path);
  if (!Array.isArray(found)) throw new Error(`expected an array at ${path.join('.')}: ${show(value)}`);
  return found;
}

/** The error messages of a `{errors: [...]}` body, joined. */
export const errorsOf = (body: unknown): string => arr(body, 'errors').join(' | ');

export const show = (value: unknown): string => JSON.stringify(value)?.slice(0, 2000) ?? 'undefined';

/** A test card number ending in the given digit (1 pays, 2 authorizes but never pays, 3 fails all). */
/** The requests of a catalog of one product family ("Plans") and its monthly "gold" product at $49. */
export const GOLD_CATALOG: readonly ApiRequest[] = [
  { method: 'POST', path: '/product_families.json', body: { product_family: { name: 'Plans' } } },
  {
    method: 'POST',
    path: '/product_families/1/products.json',
    body: {
      product: { name: 'Gold', handle: 'gold', price_in_cents: 4900, interval: 1, interval_unit: 'month' },
    },
  },
];

export const card = (lastDigit: 1 | 2 | 3 | 4) => `411111111111111${lastDigit}`;

export const cardAttributes = (lastDigit: 1 | 2 | 3 | 4 = 1) => ({
  full_number: card(lastDigit),
  expiration_month: 12,
  expiration_year: 2030,
});

/** An HTTP Basic `Authorization` header value. */
export const basicAuth = (credentials: string): string => `Basic ${btoa(credentials)}`;

/** A mutable handle on a site: the state and the clock move with every call. */
export class Site {
  state: SiteState;
  now: string;
  #handles = 0;

  /** Sent with every request: Basic auth with the first API key, when the site has keys. */
  readonly headers: Readonly<Record<string, string>>;

  constructor(config: SiteConfig = {}, now: string = T0) {
    this.state = createSite(config);
    this.now = now;
    const key = config.apiKeys?.[0];
    this.headers = key === undefined ? {} : { Authorization: basicAuth(`${key}:x`) };
  }

  /** Moves the clock used by later calls. */
  at(now: string): this {
    this.now = now;
    return this;
  }

  /** Advances time with `advance()` and returns the events. */
  advance(now: string): readonly SiteEvent[] {
    this.now = now;
    const result = advance(this.state, { now });
    this.state = result.state;
    return result.events;
  }

  request(method: Method | string, path: string, body?: unknown, extra: Extra = {}): Called {
    const called = call(this.state, method, path, body, this.now, { headers: this.headers, ...extra });
    this.state = called.state;
    return called;
  }

  /** A call that must succeed with `status` (201 for POST, 200 otherwise); returns the body. */
  ok(method: Method, path: string, body?: unknown, status?: number): unknown {
    const called = this.request(method, path, body);
    expect(called.status, `${method} ${path}: ${show(called.body)}`).toBe(
      status ?? (method === 'POST' ? 201 : 200),
    );
    return called.body;
  }

  /** A call that must fail with `status` and leave the state object untouched; returns the body. */
  fail(method: Method, path: string, body: unknown, status: number): unknown {
    const before = this.state;
    const called = this.request(method, path, body);
    expect(called.status, `${method} ${path}: ${show(called.body)}`).toBe(status);
    expect(called.state).toBe(before);
    expect(called.events).toEqual([]);
    return called.body;
  }

  /** A product family; returns its id. */
  family(handle?: string): number {
    const chosen = handle ?? `family-${++this.#handles}`;
    return num(
      this.ok('POST', '/product_families.json', { product_family: { name: chosen, handle: chosen } }),
      'product_family',
      'id',
    );
  }

  /** A product (monthly, $10.00 by default) in a family (a new one when absent); returns its id. */
  product(fields: Record<string, unknown> = {}, familyId?: number): number {
    const family = familyId ?? this.family();
    const handle = `product-${++this.#handles}`;
    const body = this.ok('POST', `/product_families/${family}/products.json`, {
      product: { name: handle, handle, price_in_cents: 1000, interval: 1, interval_unit: 'month', ...fields },
    });
    return num(body, 'product', 'id');
  }

  /** A customer; returns its id. */
  customer(fields: Record<string, unknown> = {}): number {
    const n = ++this.#handles;
    const body = this.ok('POST', '/customers.json', {
      customer: { first_name: 'Ada', last_name: `Lovelace ${n}`, email: `ada${n}@example.com`, ...fields },
    });
    return num(body, 'customer', 'id');
  }

  /** A credit card for a customer; returns its payment profile id. */
  card(customerId: number, lastDigit: 1 | 2 | 4 = 1): number {
    const body = this.ok('POST', '/payment_profiles.json', {
      payment_profile: { customer_id: customerId, ...cardAttributes(lastDigit) },
    });
    return num(body, 'payment_profile', 'id');
  }

  /** A subscription; returns its response body. */
  subscribe(fields: Record<string, unknown>): unknown {
    return this.ok('POST', '/subscriptions.json', { subscription: fields });
  }

  /** A customer with a card ending in `lastDigit` subscribed to a product; returns the ids. */
  subscribed(productId: number, lastDigit: 1 | 2 | 4 = 1): { customer: number; profile: number; id: number } {
    const customer = this.customer();
    const profile = this.card(customer, lastDigit);
    const body = this.subscribe({
      product_id: productId,
      customer_id: customer,
      payment_profile_id: profile,
    });
    return { customer, profile, id: num(body, 'subscription', 'id') };
  }

  /** A subscription as the API shows it now. */
  subscription(id: number): unknown {
    return get(this.ok('GET', `/subscriptions/${id}.json`), 'subscription');
  }

  /** The invoices of a subscription, oldest first. */
  invoices(subscriptionId: number): unknown[] {
    return arr(this.ok('GET', `/invoices.json?subscription_id=${subscriptionId}&per_page=200`), 'invoices');
  }
}

/** A new site builder. */
export const site = (config: SiteConfig = {}, now: string = T0): Site => new Site(config, now);
