/**
 * A refused request keeps what fell due (CONTRACT 2, amended), so `serve --data-dir` must save it: the
 * journal records it as an `advance` to its instant (replaying the request itself could differ: a 401
 * is replayed with the site's own key), and reopening gives the same state and no second charge.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFetchHandler } from '../../src/adapters/fetch.js';
import { openStore } from '../../src/cli/data-dir.js';
import { basicAuth } from '../helpers/api.js';

const KEY = 'refused-key';
const headers = { authorization: basicAuth(`${KEY}:x`), 'content-type': 'application/json' };
const ORIGIN = 'http://localhost';

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'billing-core-refused-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function open(clock: { now: string }) {
  const opened = await openStore(dir, { site: { apiKeys: [KEY] } });
  if (!opened.ok) throw new Error(opened.error);
  const store = opened.value;
  const app = createFetchHandler({ state: store.state, now: () => clock.now, commit: store.commit });
  return { store, app };
}

const post = (path: string, body: unknown, extra: Record<string, string> = headers) =>
  new Request(`${ORIGIN}${path}`, { method: 'POST', headers: extra, body: JSON.stringify(body) });

describe('a refused request in the data directory', () => {
  it('is journaled as an advance, so reopening keeps the renewal it performed, and the 401 stays refused', async () => {
    const clock = { now: '2026-01-15T12:00:00Z' };
    const first = await open(clock);
    expect((await first.app(post('/product_families.json', { product_family: { name: 'f' } }))).status).toBe(
      201,
    );
    const product = { name: 'p', handle: 'p', price_in_cents: 4900, interval: 1, interval_unit: 'month' };
    expect((await first.app(post('/product_families/1/products.json', { product }))).status).toBe(201);
    const signup = {
      subscription: {
        product_id: 1,
        customer_attributes: { first_name: 'R', last_name: 'F', email: 'rf@example.com' },
        credit_card_attributes: {
          full_number: '4111111111111111',
          expiration_month: 12,
          expiration_year: 2030,
        },
      },
    };
    expect((await first.app(post('/subscriptions.json', signup))).status).toBe(201);
    const signedUp = first.app.state();

    // After the renewal date, an unauthenticated request that would create a customer if replayed with
    // the site's key: it is refused, and the renewal it performed is kept.
    clock.now = '2026-02-16T00:00:00Z';
    const customer = { customer: { first_name: 'X', last_name: 'Y', email: 'x@example.com' } };
    const refused = await first.app(
      post('/customers.json', customer, { 'content-type': 'application/json' }),
    );
    expect(refused.status).toBe(401);
    const renewed = first.app.state();
    expect(renewed).not.toBe(signedUp);
    await first.store.close();

    const names = (await readdir(dir)).filter((name) => name.startsWith('journal-')).sort();
    const text = (await Promise.all(names.map((name) => readFile(join(dir, name), 'utf8')))).join('');
    expect(text).toContain('"kind":"advance","now":"2026-02-16T00:00:00Z"');

    const second = await open(clock);
    expect(second.store.state).toEqual(renewed);
    const customers = await second.app(new Request(`${ORIGIN}/customers.json`, { headers }));
    expect(((await customers.json()) as unknown[]).length).toBe(1);
    await second.store.close();
  });
});
