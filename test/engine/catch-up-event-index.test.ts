/**
 * A catch-up adds its records to the event log's indexes once, when it returns, rather than step by
 * step: the indexes it leaves must be exactly those of the log it leaves (as appending each record on
 * its own builds them), whether it finishes, stops at the step limit or stops for a payment whose
 * outcome is not known yet; the state it started from is never altered; and the listings by key and
 * by subscription show every record.
 */
import { describe, expect, test } from 'vitest';
import { appendEvents, emptyEventLogIndex } from '../../src/domain/event-log/log-index.js';
import { testGateway } from '../../src/domain/payment/test-gateway.js';
import { catchUp } from '../../src/engine/clock.js';
import {
  type ApiRequest,
  advance,
  advanceAsync,
  createSite,
  handle,
  type SiteState,
} from '../../src/index.js';
import { emptyList, listToArray } from '../../src/kernel/collection.js';
import { GOLD_CATALOG } from '../helpers/api.js';

const START = '2026-01-15T12:00:00.000Z';

function signup(n: number, card: string): ApiRequest {
  return {
    method: 'POST',
    path: '/subscriptions.json',
    body: {
      subscription: {
        product_handle: n % 2 === 0 ? 'gold' : 'daily',
        customer_attributes: { first_name: 'Ada', last_name: `L${n}`, email: `ada${n}@example.com` },
        credit_card_attributes: { full_number: card, expiration_month: 12, expiration_year: 2030 },
      },
    },
  };
}

/** Monthly and daily subscriptions. */
function site(count: number): SiteState {
  let state = createSite();
  const setup: ApiRequest[] = [
    ...GOLD_CATALOG,
    {
      method: 'POST',
      path: '/product_families/1/products.json',
      body: {
        product: { name: 'Daily', handle: 'daily', price_in_cents: 100, interval: 1, interval_unit: 'day' },
      },
    },
  ];
  for (const request of setup) state = handle(state, request, { now: START }).state;
  for (let n = 0; n < count; n += 1) {
    const signed = handle(state, signup(n, '4111111111111111'), { now: START });
    expect(signed.response.status).toBe(201);
    state = signed.state;
  }
  return state;
}

/** The indexes of a log as appending its records one at a time builds them. */
function indexOfLog(state: SiteState): string {
  let log = emptyList<never>() as SiteState['events'];
  let index = emptyEventLogIndex();
  for (const record of listToArray(state.events)) {
    const appended = appendEvents(log, index, [record]);
    log = appended.events;
    index = appended.eventIndex;
  }
  return JSON.stringify(index);
}

describe('a catch-up indexes its records when it returns', () => {
  test('finished, stopped at the step limit, and continued: the indexes are the log’s', () => {
    const before = site(12);
    const frozen = JSON.stringify(before);
    const whole = advance(before, { now: '2026-03-20T00:00:00Z' });
    expect(whole.complete).toBe(true);
    expect(JSON.stringify(whole.state.eventIndex)).toBe(indexOfLog(whole.state));
    expect(JSON.stringify(before)).toBe(frozen);

    let sliced = before;
    let slices = 0;
    for (let complete = false; !complete; slices += 1) {
      const step = catchUp(sliced, '2026-03-20T00:00:00.000Z', testGateway, 7);
      expect(JSON.stringify(step.state.eventIndex)).toBe(indexOfLog(step.state));
      sliced = step.state;
      complete = step.complete;
    }
    expect(slices).toBeGreaterThan(10);
    const finished = advance(sliced, { now: '2026-03-20T00:00:00Z' }).state;
    expect(JSON.stringify(finished)).toBe(JSON.stringify(whole.state));
  });

  test('stopped for a payment whose outcome comes later: the indexes are the log’s', async () => {
    const before = site(6);
    let asked = 0;
    const done = await advanceAsync(before, {
      now: '2026-01-20T00:00:00Z',
      payments: async (attempt) => {
        asked += 1;
        return testGateway(attempt);
      },
    });
    expect(asked).toBeGreaterThan(3);
    expect(JSON.stringify(done.state.eventIndex)).toBe(indexOfLog(done.state));
    expect(JSON.stringify(done.state)).toBe(
      JSON.stringify(advance(before, { now: '2026-01-20T00:00:00Z' }).state),
    );
  });

  test('the listings by key and by subscription show the records of the catch-up', () => {
    const now = '2026-01-26T00:00:00Z';
    const renewed = advance(site(4), { now }).state;
    const log = listToArray(renewed.events);
    const ids = (body: unknown) => (body as { event: { id: number } }[]).map((entry) => entry.event.id);
    const byKey = handle(
      renewed,
      { method: 'GET', path: '/events.json', query: { filter: 'renewal_success', per_page: '200' } },
      { now },
    );
    const successes = log.filter((record) => record.key === 'renewal_success').map((record) => record.id);
    expect(successes.length).toBe(20);
    expect(ids(byKey.response.body).sort((a, b) => a - b)).toEqual(successes);
    const own = handle(
      renewed,
      { method: 'GET', path: '/subscriptions/2/events.json', query: { per_page: '200' } },
      { now },
    );
    const ofTwo = log.filter((record) => record.subscription_id === 2).map((record) => record.id);
    expect(ofTwo.length).toBeGreaterThan(30);
    expect(ids(own.response.body).sort((a, b) => a - b)).toEqual(ofTwo);
  });
});
