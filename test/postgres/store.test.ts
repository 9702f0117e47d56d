/**
 * The PostgreSQL store against a real server: the migration (concurrent, repeated), sites created and
 * listed, a site written through `createFetchHandler` and loaded back equal from its incremental
 * snapshot and journal, and fencing: after a takeover, a write under the old lease is refused and changes
 * nothing.
 */

import { describe, expect, it } from 'vitest';
import { createFetchHandler, type SiteFetchHandler } from '../../src/adapters/fetch.js';
import { migrate } from '../../src/adapters/postgres/migrate.js';
import { writePieces } from '../../src/adapters/postgres/pieces-table.js';
import { inTransaction } from '../../src/adapters/postgres/sql.js';
import { FencedError, type LeasedSite, openPostgresStore } from '../../src/adapters/postgres/store.js';
import type { AsyncPaymentGateway } from '../../src/domain/payment/types.js';
import { pieceLines } from '../../src/engine/persistence/pieces.js';
import { checkState } from '../../src/testing/index.js';
import { basicAuth, cardAttributes, num } from '../helpers/api.js';
import { keyedByText } from '../helpers/list-indexes.js';
import { expectCurrentPieces } from './current-pieces.js';
import { usePostgres } from './server.js';

const pg = usePostgres();
const KEY = 'store-key';
const headers = { authorization: basicAuth(`${KEY}:x`), 'content-type': 'application/json' };

async function leased(subdomain: string, owner: string, leaseMs = 60_000): Promise<LeasedSite> {
  const store = await openPostgresStore(pg.pool(), { snapshotEvery: 7 });
  const got = await store.acquire(subdomain, owner, leaseMs);
  if (got.kind !== 'acquired') throw new Error(`not acquired: ${got.kind}`);
  return got.site;
}

const appOver = (site: LeasedSite): SiteFetchHandler =>
  createFetchHandler({ state: site.state, commit: site.commit, now: () => '2026-02-01T00:00:00Z' });

async function send(app: SiteFetchHandler, method: string, path: string, body?: unknown): Promise<Response> {
  return app(
    new Request(`http://site.test${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
  );
}

async function count(sql: string, values: unknown[]): Promise<number> {
  const result = await pg.pool().query<{ n: string }>(sql, values);
  return Number(result.rows[0]?.n);
}

describe('billing-core/postgres store', () => {
  it('migrates once, concurrently and again, and creates and lists sites', async () => {
    await Promise.all([migrate(pg.pool()), migrate(pg.pool()), migrate(pg.pool())]);
    const store = await openPostgresStore(pg.pool());
    expect(await store.createSite('alpha', { apiKeys: [KEY] })).toEqual({ ok: true });
    expect(await store.createSite('alpha', { apiKeys: [KEY] })).toMatchObject({ ok: false });
    expect(await store.createSite('Not_A_Label', { apiKeys: [KEY] })).toMatchObject({ ok: false });
    expect(await store.createSite('beta', { apiKeys: [KEY], currency: 'XX' } as never)).toMatchObject({
      ok: false,
    });
    const listed = await store.listSites();
    expect(listed.map((row) => row.subdomain)).toContain('alpha');
    expect(listed.find((row) => row.subdomain === 'alpha')).toMatchObject({
      epoch: 0,
      owner: null,
      position: 0,
    });
    expect(await store.acquire('nowhere', 'p1', 1000)).toEqual({ kind: 'missing' });
  });

  it('keeps a site in a journal and incremental snapshots, and loads it back equal', async () => {
    const store = await openPostgresStore(pg.pool());
    expect(await store.createSite('gamma', { apiKeys: [KEY] })).toEqual({ ok: true });
    const site = await leased('gamma', 'p1');
    expect((await store.acquire('gamma', 'p2', 1000)).kind).toBe('held');
    const app = appOver(site);
    const family = await send(app, 'POST', '/product_families.json', { product_family: { name: 'F' } });
    const familyId = num(await family.json(), 'product_family', 'id');
    const product = await send(app, 'POST', `/product_families/${familyId}/products.json`, {
      product: { name: 'P', handle: 'p', price_in_cents: 1000, interval: 1, interval_unit: 'month' },
    });
    const productId = num(await product.json(), 'product', 'id');
    const ids: number[] = [];
    for (let i = 0; i < 30; i += 1) {
      const created = await send(app, 'POST', '/customers.json', {
        customer: { first_name: 'C', last_name: `${i}`, email: `c${i}@example.com`, reference: `c${i}` },
      });
      expect(created.status).toBe(201);
      ids.push(num(await created.json(), 'customer', 'id'));
    }
    for (const id of ids.slice(0, 10)) {
      const updated = await send(app, 'PUT', `/customers/${id}.json`, {
        customer: { first_name: 'Updated' },
      });
      expect(updated.status).toBe(200);
    }
    for (const id of ids.slice(10, 14))
      expect((await send(app, 'DELETE', `/customers/${id}.json`)).status).toBe(204);
    const subscribed = await send(app, 'POST', '/subscriptions.json', {
      subscription: {
        product_id: productId,
        customer_id: ids[20],
        credit_card_attributes: {
          full_number: '4111111111111111',
          expiration_month: 12,
          expiration_year: 2030,
        },
      },
    });
    expect(subscribed.status).toBe(201);
    expect((await send(app, 'POST', '/customers.json', { customer: {} })).status).toBe(422);
    await site.release();

    const row = (await store.listSites()).find((each) => each.subdomain === 'gamma');
    expect(row?.position).toBeGreaterThan(40);
    expect(row?.snapshotPosition).toBeGreaterThan(30);
    // The journal keeps only what the snapshot does not cover, and the pieces are exactly the state's.
    expect(
      await count('SELECT count(*) AS n FROM billing_core_journal WHERE subdomain = $1', ['gamma']),
    ).toBe((row?.position ?? 0) - (row?.snapshotPosition ?? 0));
    const again = await leased('gamma', 'p2');
    expect(again.epoch).toBe(site.epoch + 1);
    expect(again.state).toEqual(JSON.parse(JSON.stringify(app.state())));
    // Keys come back in the order the state has them, so listings and answers read the same.
    expect(JSON.stringify(again.state)).toBe(JSON.stringify(app.state()));
    expect(checkState(again.state)).toEqual([]);
    await again.release();
  });

  it('leaves no stale piece behind: the rows are the pieces of the state after many snapshots', async () => {
    const store = await openPostgresStore(pg.pool());
    await store.createSite('delta', { apiKeys: [KEY] });
    const site = await leased('delta', 'p1');
    const app = appOver(site);
    for (let i = 0; i < 25; i += 1)
      await send(app, 'POST', '/customers.json', {
        customer: { first_name: 'D', last_name: `${i}`, email: `d${i}@example.com` },
      });
    for (let i = 1; i <= 20; i += 3) await send(app, 'DELETE', `/customers/${i}.json`);
    await site.release();
    const again = await leased('delta', 'p1');
    const pieces = await pg
      .pool()
      .query<{ line: string }>('SELECT line FROM billing_core_pieces WHERE subdomain = $1', ['delta']);
    const row = (await store.listSites()).find((each) => each.subdomain === 'delta');
    expect(row?.snapshotPosition).toBe(row?.position);
    expectCurrentPieces(
      pieces.rows.map((each) => each.line),
      again.state,
    );
    expect(again.state).toEqual(JSON.parse(JSON.stringify(app.state())));
    await again.release();
  });

  it('loads a site saved while its lists were keyed by text, and writes them keyed by ids', async () => {
    const store = await openPostgresStore(pg.pool());
    await store.createSite('lists', { apiKeys: [KEY] });
    const site = await leased('lists', 'p1');
    const app = appOver(site);
    const parent = num(
      await (
        await send(app, 'POST', '/customers.json', {
          customer: { first_name: 'P', last_name: 'P', email: 'p@example.com' },
        })
      ).json(),
      'customer',
      'id',
    );
    for (let i = 0; i < 9; i += 1)
      await send(app, 'POST', '/customers.json', {
        customer: { first_name: 'C', last_name: `${i}`, email: `c${i}@example.com`, parent_id: parent },
      });
    await site.release();
    // The pieces as an earlier version wrote them: every list sharded, keyed by the id's text.
    const current = app.state();
    const older = keyedByText(current);
    await inTransaction(pg.pool(), async (client) => {
      await client.query('DELETE FROM billing_core_pieces WHERE subdomain = $1', ['lists']);
      const ord = await writePieces(client, 'lists', pieceLines(older), 0);
      await client.query('UPDATE billing_core_sites SET next_piece = $2 WHERE subdomain = $1', [
        'lists',
        ord,
      ]);
    });
    const again = await leased('lists', 'p2');
    expect(again.state.listIndexes).toStrictEqual(JSON.parse(JSON.stringify(current.listIndexes)));
    const upgraded = appOver(again);
    for (let i = 0; i < 8; i += 1)
      await send(upgraded, 'POST', '/customers.json', {
        customer: { first_name: 'D', last_name: `${i}`, email: `d${i}@example.com`, parent_id: parent },
      });
    await again.release();
    const pieces = await pg
      .pool()
      .query<{ line: string }>('SELECT line FROM billing_core_pieces WHERE subdomain = $1', ['lists']);
    expectCurrentPieces(
      pieces.rows.map((each) => each.line),
      upgraded.state(),
    );
    const last = await leased('lists', 'p3');
    expect(JSON.stringify(last.state)).toBe(JSON.stringify(upgraded.state()));
    expect(checkState(last.state)).toEqual([]);
    await last.release();
  });

  it("journals the payment processor's answers, so that a takeover replays the same site without it", async () => {
    const store = await openPostgresStore(pg.pool());
    await store.createSite('zeta', { apiKeys: [KEY] });
    const site = await leased('zeta', 'p1', 300);
    const takesCardThree: AsyncPaymentGateway = async (attempt) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      return attempt.paymentProfile.lastFour === '1113'
        ? { success: true, gatewayTransactionId: 'ch_1' }
        : { success: false, message: 'Declined by the processor' };
    };
    const app = createFetchHandler({
      state: site.state,
      commit: site.commit,
      now: () => '2026-02-01T00:00:00Z',
      payments: takesCardThree,
    });
    expect(
      (await send(app, 'POST', '/product_families.json', { product_family: { name: 'Tools' } })).status,
    ).toBe(201);
    const product = { name: 'Pro', handle: 'pro', price_in_cents: 2500, interval: 1, interval_unit: 'month' };
    expect((await send(app, 'POST', '/product_families/1/products.json', { product })).status).toBe(201);
    const signup = (lastDigit: 1 | 3, name: string) =>
      send(app, 'POST', '/subscriptions.json', {
        subscription: {
          product_handle: 'pro',
          customer_attributes: { first_name: name, last_name: 'L', email: `${name}@example.com` },
          credit_card_attributes: cardAttributes(lastDigit),
        },
      });
    expect((await signup(3, 'ada')).status).toBe(201);
    expect((await signup(1, 'bo')).status).toBe(422);
    const journal = await pg
      .pool()
      .query<{ entry: unknown }>('SELECT entry FROM billing_core_journal WHERE subdomain = $1 ORDER BY seq', [
        'zeta',
      ]);
    expect(JSON.stringify(journal.rows)).toContain('"gatewayTransactionId":"ch_1"');
    // Not released, as after a crash: the next holder replays the journal, with no processor at hand.
    await new Promise((resolve) => setTimeout(resolve, 400));
    const next = await leased('zeta', 'p2');
    expect(JSON.stringify(next.state)).toBe(JSON.stringify(app.state()));
    expect(checkState(next.state)).toEqual([]);
    await next.release();
  });

  it('refuses a write made under a lease that was taken over (fencing), and applies it nowhere', async () => {
    const store = await openPostgresStore(pg.pool());
    await store.createSite('epsilon', { apiKeys: [KEY] });
    const old = await leased('epsilon', 'p1', 50);
    const oldApp = appOver(old);
    expect(
      (
        await send(oldApp, 'POST', '/customers.json', {
          customer: { first_name: 'A', last_name: 'A', email: 'a@example.com' },
        })
      ).status,
    ).toBe(201);
    await new Promise((resolve) => setTimeout(resolve, 150));
    const taker = await leased('epsilon', 'p2');
    expect(taker.epoch).toBe(old.epoch + 1);
    const refused = await send(oldApp, 'POST', '/customers.json', {
      customer: { first_name: 'B', last_name: 'B', email: 'b@example.com' },
    });
    expect(refused.status).toBe(503);
    expect(old.failure()).toBeInstanceOf(FencedError);
    expect(
      await count('SELECT count(*) AS n FROM billing_core_journal WHERE subdomain = $1', ['epsilon']),
    ).toBe(1);
    const newApp = appOver(taker);
    expect(
      (
        await send(newApp, 'POST', '/customers.json', {
          customer: { first_name: 'C', last_name: 'C', email: 'c@example.com' },
        })
      ).status,
    ).toBe(201);
    // The stale holder's release does not free the new holder's lease.
    await old.release();
    expect((await store.acquire('epsilon', 'p3', 1000)).kind).toBe('held');
    const journal = await pg
      .pool()
      .query<{ seq: string }>('SELECT seq FROM billing_core_journal WHERE subdomain = $1 ORDER BY seq', [
        'epsilon',
      ]);
    expect(journal.rows.map((each) => Number(each.seq))).toEqual([0, 1]);
    await taker.release();
    const last = await leased('epsilon', 'p3');
    expect(JSON.stringify(last.state).includes('b@example.com')).toBe(false);
    expect(JSON.stringify(last.state).includes('c@example.com')).toBe(true);
    await last.release();
  });
});
