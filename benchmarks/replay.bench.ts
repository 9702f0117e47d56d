/**
 * A replay of 100,000 recorded requests, each with its instant, through `handle()` onto an empty site:
 * catalog setup, then over 40 days a mix of signups, reads, customer writes, allocations and invoice
 * lists; renewals fall due on the way and are performed by the requests that pass them. Target: under
 * 10 seconds. The floor is the same count of plain object updates (one Map entry written per request).
 */
import { type ApiRequest, createSite, handle } from '../src/index.js';
import { type BenchOptions, type BenchRow, label, measureAgainstFloor, seededRandom } from './harness.js';

interface Recorded {
  readonly now: string;
  readonly request: ApiRequest;
}

const START = Date.parse('2026-01-01T00:00:00Z');
const SPAN_MS = 40 * 86_400_000;

const signup = (n: number): unknown => ({
  subscription: {
    product_handle: 'gold',
    customer_attributes: { first_name: 'Ada', last_name: `Lovelace ${n}`, email: `ada${n}@example.com` },
    credit_card_attributes: { full_number: '4111111111111111', expiration_month: 12, expiration_year: 2030 },
  },
});

/** The recorded traffic: deterministic, every request valid when replayed in order. */
export function record(count: number): Recorded[] {
  const random = seededRandom(count);
  const at = (index: number): string => new Date(START + Math.floor((index * SPAN_MS) / count)).toISOString();
  const pick = (max: number): number => 1 + Math.floor(random() * max);
  const log: Recorded[] = [
    {
      now: at(0),
      request: {
        method: 'POST',
        path: '/product_families.json',
        body: { product_family: { name: 'Plans' } },
      },
    },
    {
      now: at(0),
      request: {
        method: 'POST',
        path: '/product_families/1/products.json',
        body: {
          product: {
            name: 'Gold',
            handle: 'gold',
            price_in_cents: 4900,
            interval: 1,
            interval_unit: 'month',
          },
        },
      },
    },
    {
      now: at(0),
      request: {
        method: 'POST',
        path: '/product_families/1/quantity_based_components.json',
        body: {
          quantity_based_component: {
            name: 'Seats',
            unit_name: 'seat',
            pricing_scheme: 'per_unit',
            unit_price: '5',
          },
        },
      },
    },
    { now: at(0), request: { method: 'POST', path: '/subscriptions.json', body: signup(0) } },
  ];
  let subscriptions = 1;
  let customers = 1;
  for (let index = log.length; index < count; index += 1) {
    const now = at(index);
    const roll = random();
    let request: ApiRequest;
    if (roll < 0.05) {
      subscriptions += 1;
      customers += 1;
      request = { method: 'POST', path: '/subscriptions.json', body: signup(index) };
    } else if (roll < 0.4) {
      request = { method: 'GET', path: `/subscriptions/${pick(subscriptions)}.json` };
    } else if (roll < 0.55) {
      request = { method: 'GET', path: `/customers/${pick(customers)}.json` };
    } else if (roll < 0.65) {
      request = {
        method: 'PUT',
        path: `/customers/${pick(customers)}.json`,
        body: { customer: { organization: `Org ${index}` } },
      };
    } else if (roll < 0.75) {
      customers += 1;
      request = {
        method: 'POST',
        path: '/customers.json',
        body: {
          customer: { first_name: 'Grace', last_name: `Hopper ${index}`, email: `grace${index}@example.com` },
        },
      };
    } else if (roll < 0.85) {
      request = {
        method: 'POST',
        path: `/subscriptions/${pick(subscriptions)}/components/1/allocations.json`,
        body: { allocation: { quantity: pick(20) } },
      };
    } else if (roll < 0.95) {
      request = { method: 'GET', path: `/invoices.json?subscription_id=${pick(subscriptions)}` };
    } else {
      request = { method: 'GET', path: '/subscriptions.json?per_page=20' };
    }
    log.push({ now, request });
  }
  return log;
}

function replay(log: readonly Recorded[]): void {
  let state = createSite();
  for (const { now, request } of log) {
    const result = handle(state, request, { now });
    if (result.response.status >= 300) {
      throw new Error(
        `${request.method} ${request.path}: ${JSON.stringify(result.response.body).slice(0, 300)}`,
      );
    }
    state = result.state;
  }
}

function replayCase(count: number, runs: number): BenchRow {
  const log = record(count);
  const measured = measureAgainstFloor(
    () => replay(log),
    () => {
      const store = new Map<number, { readonly index: number; readonly path: string }>();
      for (const [index, { request }] of log.entries())
        store.set(index % 10_007, { index, path: request.path });
      return store.size;
    },
    runs,
    0,
  );
  return {
    name: `replay of ${label(count)} requests onto an empty site`,
    ...measured,
    note: 'target < 10 s; floor = one plain Map update per request',
  };
}

export default function replayBench(options: BenchOptions): BenchRow[] {
  return options.smoke
    ? [replayCase(3000, 1)]
    : [replayCase(Number(process.env['REPLAY_REQUESTS'] ?? 100_000), 1)];
}
