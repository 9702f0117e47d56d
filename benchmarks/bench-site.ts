/**
 * Building sites for the benchmarks through the public `handle()`, and, for sites too large to build one
 * request at a time within a benchmark run, through the same routes and the same decide/evolve path in
 * batches: one transaction for a batch of requests, applied in one `applyInBatch`, as `handle()` applies
 * one request's changes. The result is a real state (ids, indexes, schedule and event log as the engine
 * keeps them), only without a separate new state object per request.
 */

import { parseQuery } from '../src/api/query.js';
import { createRouter } from '../src/api/router.js';
import { routes } from '../src/api/routes.js';
import { testGateway } from '../src/domain/payment/test-gateway.js';
import { applyInBatch } from '../src/engine/changes.js';
import { Transaction } from '../src/engine/transaction.js';
import { type ApiRequest, createSite, handle, type SiteConfig, type SiteState } from '../src/index.js';
import { toInstant } from '../src/kernel/time.js';

/** A request that must succeed; throws with the response otherwise (a broken fixture, not a result). */
export function must(
  state: SiteState,
  request: ApiRequest,
  now: string,
): { state: SiteState; body: unknown } {
  const result = handle(state, request, { now });
  if (result.response.status >= 300) {
    throw new Error(
      `${request.method} ${request.path} answered ${result.response.status}: ${JSON.stringify(result.response.body)?.slice(0, 500)}`,
    );
  }
  return { state: result.state, body: result.response.body };
}

/** A mutable handle on a site for fixtures: the state moves with every call. */
export class BenchSite {
  state: SiteState;
  now: string;

  /** Credentials for a site configured with API keys (its first). */
  readonly #headers: Readonly<Record<string, string>>;

  constructor(config: SiteConfig = {}, now = '2026-01-15T12:00:00Z') {
    this.state = createSite(config);
    this.now = now;
    const key = config.apiKeys?.[0];
    this.#headers = key === undefined ? {} : { authorization: `Basic ${btoa(`${key}:x`)}` };
  }

  /** A request that must succeed; returns the response body. */
  ok(method: string, path: string, body?: unknown): unknown {
    const request = { method, path, headers: this.#headers, ...(body === undefined ? {} : { body }) };
    const done = must(this.state, request, this.now);
    this.state = done.state;
    return done.body;
  }

  /** A product family and a $49 monthly product in it; returns the product id. */
  product(handle = 'gold', priceInCents = 4900): number {
    const family = idOf(
      this.ok('POST', '/product_families.json', { product_family: { name: `${handle} plans` } }),
    );
    return idOf(
      this.ok('POST', `/product_families/${family}/products.json`, {
        product: { name: handle, handle, price_in_cents: priceInCents, interval: 1, interval_unit: 'month' },
      }),
    );
  }
}

/** The `id` of the only object in a `{resource: {...}}` body. */
export function idOf(body: unknown): number {
  const inner = body !== null && typeof body === 'object' ? Object.values(body)[0] : undefined;
  const id = inner !== null && typeof inner === 'object' && 'id' in inner ? inner.id : undefined;
  if (typeof id !== 'number') throw new Error(`no id in ${JSON.stringify(body)?.slice(0, 300)}`);
  return id;
}

/** A signup body: a new customer with a card that pays, on a product by handle. */
export const signupBody = (productHandle: string, n: number): unknown => ({
  subscription: {
    product_handle: productHandle,
    customer_attributes: { first_name: 'Ada', last_name: `Lovelace ${n}`, email: `ada${n}@example.com` },
    credit_card_attributes: { full_number: '4111111111111111', expiration_month: 12, expiration_year: 2030 },
  },
});

const matchRoute = createRouter(routes);

/**
 * Applies `count` requests (made by `requestOf`) at one instant, `batch` per transaction. Every request
 * must succeed. Paths carry no query string and no percent-encoding (fixtures only).
 */
export function applyInBatches(
  start: SiteState,
  count: number,
  requestOf: (n: number) => { readonly method: string; readonly path: string; readonly body: unknown },
  now: string,
  batch = 1000,
): SiteState {
  const instant = toInstant(now);
  const query = parseQuery('', undefined);
  if (query === undefined) throw new Error('an empty query parses');
  let state = start;
  // The batches' in-between states are never kept: each changes in place what the ones before made.
  const owned = new Set<object>();
  for (let first = 0; first < count; first += batch) {
    const tx = new Transaction(state, instant);
    for (let n = first; n < Math.min(count, first + batch); n += 1) {
      const request = requestOf(n);
      const match = matchRoute(request.method, request.path.split('/').slice(1));
      if (match.kind !== 'found') throw new Error(`no route for ${request.method} ${request.path}`);
      const result = match.route.run({
        tx,
        params: match.params,
        query,
        body: request.body,
        gateway: testGateway,
      });
      if (!result.ok)
        throw new Error(`${request.path} refused: ${JSON.stringify(result.error).slice(0, 300)}`);
    }
    state = applyInBatch(state, [...tx.changes(), { type: 'clock', now: instant }], owned);
  }
  return state;
}

/**
 * A site of `count` monthly $49 subscriptions to "gold", each with its signup invoice paid, all signed up
 * at `now` (so that all renew at one instant), built through `applyInBatches`.
 */
export function signedUpSite(count: number, now: string, config: SiteConfig = {}): SiteState {
  const site = new BenchSite(config, now);
  site.product('gold');
  return applyInBatches(
    site.state,
    count,
    (n) => ({ method: 'POST', path: '/subscriptions.json', body: signupBody('gold', n) }),
    now,
  );
}
