/**
 * The event log: one page of `GET /events.json` (and of the subscription listing and the count) through
 * `handle()`, from a log of 1,000,000 records against the same request from a log of 1,000 (the floor).
 * A page is found by seeking, so the ratio should stay near 1 (target ≤ 2). Figures are per request.
 *
 * Fixtures, outside the timed code: a site with ten subscriptions signed up through `handle()`, then its
 * log filled through the engine's own path (`Transaction.record` and `applyChanges`, which keep the
 * indexes) in transactions of up to 1,000 records spread evenly over 30 days, so both logs cover the same
 * days. Keys rotate over four keys without data; three of every four records name a subscription.
 */
import { handle } from '../src/api/handle.js';
import { applyChanges } from '../src/engine/changes.js';
import { createSite, type SiteState } from '../src/engine/state.js';
import { Transaction } from '../src/engine/transaction.js';
import { addSeconds } from '../src/kernel/time.js';
import { type BenchOptions, type BenchRow, label, measureAgainstFloor, perCall } from './harness.js';

const START = '2026-01-01T00:00:00.000Z';
const SPAN_SECONDS = 30 * 86_400;
const SUBSCRIPTIONS = 10;
const KEYS = [
  'customer_update',
  'billing_date_change',
  'statement_closed',
  'expiration_date_change',
] as const;

function request(state: SiteState, method: string, path: string, body?: unknown): SiteState {
  const result = handle(state, { method, path, ...(body === undefined ? {} : { body }) }, { now: START });
  if (result.response.status >= 300) throw new Error(`${method} ${path}: ${JSON.stringify(result.response)}`);
  return result.state;
}

/** A site in New York with ten subscriptions (ids 1–10), signed up at START. */
function siteWithSubscriptions(): SiteState {
  let state = createSite({ timeZone: 'America/New_York' });
  state = request(state, 'POST', '/product_families.json', { product_family: { name: 'Plans' } });
  state = request(state, 'POST', '/product_families/1/products.json', {
    product: { name: 'Gold', handle: 'gold', price_in_cents: 1000, interval: 1, interval_unit: 'month' },
  });
  for (let n = 0; n < SUBSCRIPTIONS; n += 1) {
    state = request(state, 'POST', '/subscriptions.json', {
      subscription: {
        product_handle: 'gold',
        customer_attributes: { first_name: 'A', last_name: `B${n}`, email: `a${n}@example.com` },
        credit_card_attributes: {
          full_number: '4111111111111111',
          expiration_month: 12,
          expiration_year: 2030,
        },
      },
    });
  }
  return state;
}

/** The site with `size` more records, in batches at evenly spaced instants over SPAN_SECONDS. */
function siteWithLog(base: SiteState, size: number): SiteState {
  const batch = Math.min(1000, Math.max(1, Math.floor(size / 100)));
  const batches = Math.ceil(size / batch);
  let state = base;
  for (let b = 0; b < batches; b += 1) {
    const now = addSeconds(START, 60 + Math.floor((b * SPAN_SECONDS) / batches));
    const tx = new Transaction(state, now);
    for (let i = b * batch; i < Math.min(size, (b + 1) * batch); i += 1) {
      const key = KEYS[i % KEYS.length] ?? 'customer_update';
      const subscriptionId =
        key === 'customer_update' ? null : (Math.floor(i / KEYS.length) % SUBSCRIPTIONS) + 1;
      tx.record({ key, message: `record ${i}`, subscriptionId, customerId: (i % SUBSCRIPTIONS) + 1 });
    }
    state = applyChanges(state, [...tx.changes(), { type: 'clock', now }]);
  }
  if (state.events.length < size) throw new Error('the log was not filled');
  return state;
}

interface Case {
  readonly name: string;
  readonly path: (state: SiteState) => string;
}

const CASES: readonly Case[] = [
  { name: 'page 1, per_page 20 (default desc)', path: () => '/events.json?per_page=20' },
  { name: 'page 1, per_page 200', path: () => '/events.json?per_page=200' },
  { name: 'page 40, per_page 20', path: () => '/events.json?per_page=20&page=40' },
  {
    name: 'since_id at the middle, asc, per_page 20',
    path: (state) => `/events.json?since_id=${Math.floor(state.events.length / 2)}&direction=asc&per_page=20`,
  },
  {
    name: 'start_date..end_date (one local day), per_page 20',
    path: () => '/events.json?start_date=2026-01-15&end_date=2026-01-15&per_page=20',
  },
  {
    name: 'start_datetime..end_datetime, asc, per_page 20',
    path: () =>
      '/events.json?start_datetime=2026-01-20T06:00:00-05:00&end_datetime=2026-01-22T18:00:00-05:00&direction=asc&per_page=20',
  },
  { name: 'filter one key, per_page 20', path: () => '/events.json?filter=statement_closed&per_page=20' },
  {
    name: 'filter two keys, page 5, per_page 20',
    path: () => '/events.json?filter=statement_closed,customer_update&page=5&per_page=20',
  },
  { name: 'subscription 3, per_page 20', path: () => '/subscriptions/3/events.json?per_page=20' },
  {
    name: 'subscription 3, page 3, asc, per_page 20',
    path: () => '/subscriptions/3/events.json?per_page=20&page=3&direction=asc',
  },
  { name: 'count, one key', path: () => '/events/count.json?filter=billing_date_change' },
  {
    name: 'count, one local day',
    path: () => '/events/count.json?start_date=2026-01-15&end_date=2026-01-15',
  },
];

/** `calls` requests in a row; fails when a request does not answer 200 with a page. */
function run(state: SiteState, path: string, calls: number, now: string): () => void {
  return () => {
    for (let i = 0; i < calls; i += 1) {
      const result = handle(state, { method: 'GET', path }, { now });
      if (result.response.status !== 200 || result.state !== state) throw new Error(`${path}: not a read`);
    }
  };
}

const pageLength = (state: SiteState, path: string, now: string): string => {
  const body = handle(state, { method: 'GET', path }, { now }).response.body;
  return Array.isArray(body) ? `${body.length} records` : JSON.stringify(body);
};

export default function eventsBench(options: BenchOptions): BenchRow[] {
  const [large, small] = options.smoke ? [10_000, 1_000] : [1_000_000, 1_000];
  const calls = options.smoke ? 10 : 200;
  const runs = options.smoke ? 3 : 7;
  const base = siteWithSubscriptions();
  const build = performance.now();
  const big = siteWithLog(base, large);
  const buildMs = performance.now() - build;
  const little = siteWithLog(base, small);
  const now = addSeconds(START, SPAN_SECONDS + 3600);
  const rows: BenchRow[] = [];
  for (const c of CASES) {
    const bigPath = c.path(big);
    const littlePath = c.path(little);
    const measured = measureAgainstFloor(
      run(big, bigPath, calls, now),
      run(little, littlePath, calls, now),
      runs,
      1,
    );
    rows.push({
      name: `events: ${c.name}, ${label(large)} vs ${label(small)} records`,
      ...perCall(measured, calls),
      note: `ms per request; ${pageLength(big, bigPath, now)} vs ${pageLength(little, littlePath, now)}`,
    });
  }
  rows.push({
    name: `events: building a log of ${label(large)} records (fixture)`,
    ms: buildMs,
    note: 'Transaction.record + applyChanges in batches of up to 1,000 (the log and its indexes appended per batch)',
  });
  return rows;
}
