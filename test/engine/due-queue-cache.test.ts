/**
 * `catchUp` keeps the due queue a state's catch-up left for the next request on that state. The cache
 * must be invisible: a chain of requests, a branch handled twice from one state, and the same states
 * deep-copied (which no cache entry can match) all give identical responses and states.
 */
import { describe, expect, test } from 'vitest';
import { type ApiRequest, createSite, handle, type SiteState } from '../../src/index.js';
import { GOLD_CATALOG } from '../helpers/api.js';

const HOUR = 3_600_000;
const START = Date.parse('2026-01-01T00:00:00Z');
const at = (ms: number) => new Date(ms).toISOString();

function signup(n: number): ApiRequest {
  return {
    method: 'POST',
    path: '/subscriptions.json',
    body: {
      subscription: {
        product_handle: 'gold',
        customer_attributes: { first_name: 'Ada', last_name: `L${n}`, email: `ada${n}@example.com` },
        credit_card_attributes: {
          full_number: '4111111111111111',
          expiration_month: 12,
          expiration_year: 2030,
        },
      },
    },
  };
}

/** A site whose subscriptions all renew on 2026-02-01, one every hour of the day from 00:30 on. */
function siteRenewingThroughOneDay(): SiteState {
  let state = createSite();
  const setup: ApiRequest[] = [...GOLD_CATALOG];
  for (const request of setup) state = handle(state, request, { now: at(START) }).state;
  for (let n = 0; n < 24; n += 1)
    state = handle(state, signup(n), { now: at(START + n * HOUR + HOUR / 2) }).state;
  return state;
}

/** Requests through 2026-02-01, each half an hour after the previous one, alternating reads and writes. */
const dayOfRequests = (): { now: string; request: ApiRequest }[] =>
  Array.from({ length: 48 }, (_, i) => ({
    now: at(Date.parse('2026-02-01T00:00:00Z') + i * (HOUR / 2)),
    request:
      i % 3 === 0
        ? signup(100 + i)
        : i % 3 === 1
          ? { method: 'GET', path: `/subscriptions/${1 + (i % 24)}.json` }
          : {
              method: 'PUT',
              path: `/customers/${1 + (i % 24)}.json`,
              body: { customer: { organization: `O${i}` } },
            },
  }));

describe('the due queue kept between requests', () => {
  test('a chain of requests through a day of renewals equals the same chain on deep copies', () => {
    let cached = siteRenewingThroughOneDay();
    let copied = structuredClone(cached);
    let renewals = 0;
    for (const { now, request } of dayOfRequests()) {
      const a = handle(cached, request, { now });
      const b = handle(structuredClone(copied), request, { now });
      expect(a.response).toEqual(b.response);
      expect(a.events).toEqual(b.events);
      renewals += a.events.filter((event) => event.key === 'renewal_success').length;
      cached = a.state;
      copied = b.state;
    }
    expect(renewals).toBe(24);
    expect(cached).toEqual(copied);
  });

  test('a state handled twice (a branch) renews the same subscriptions both times', () => {
    let state = siteRenewingThroughOneDay();
    state = handle(
      state,
      { method: 'GET', path: '/subscriptions/1.json' },
      { now: '2026-02-01T06:00:00Z' },
    ).state;
    const later = '2026-02-01T12:00:00Z';
    const first = handle(state, { method: 'GET', path: '/subscriptions/2.json' }, { now: later });
    const second = handle(state, { method: 'GET', path: '/subscriptions/3.json' }, { now: later });
    const renewed = (events: readonly { key: string; subscription_id: number | null }[]) =>
      events.filter((event) => event.key === 'renewal_success').map((event) => event.subscription_id);
    expect(renewed(first.events)).toEqual([7, 8, 9, 10, 11, 12]);
    expect(renewed(second.events)).toEqual(renewed(first.events));
    expect(second.state).toEqual(first.state);
  });
});
