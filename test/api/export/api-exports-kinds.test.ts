import { test } from '@fast-check/vitest';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { listGet } from '../../../src/kernel/collection.js';
import { checkExports, checkState } from '../../../src/testing/index.js';
import { arr, get, num, type Site, site } from '../../helpers/api.js';

/**
 * A site with `count` subscriptions to a free product, each with its signup invoice (of nothing, so that
 * a purge may remove both); returns the subscriptions.
 */
function withSubscriptions(count: number): {
  s: Site;
  product: number;
  subs: { id: number; customer: number }[];
} {
  const s = site();
  const product = s.product({ price_in_cents: 0 });
  const subs: { id: number; customer: number }[] = [];
  for (let i = 0; i < count; i += 1) {
    const { id, customer } = s.subscribed(product);
    subs.push({ id, customer });
  }
  return { s, product, subs };
}

const KINDS = ['invoices', 'subscriptions'] as const;
type Kind = (typeof KINDS)[number];

const start = (s: Site, kind: Kind) => s.ok('POST', `/api_exports/${kind}.json`);
const rows = (s: Site, kind: Kind, batch: number, query = '') =>
  arr(s.ok('GET', `/api_exports/${kind}/${batch}/rows.json${query}`));
const allInvoices = (s: Site) => arr(s.ok('GET', '/invoices.json?direction=asc&per_page=200'), 'invoices');
const allSubscriptions = (s: Site) =>
  arr(s.ok('GET', '/subscriptions.json?direction=asc&per_page=200')).map((row) => get(row, 'subscription'));
const purge = (s: Site, sub: { id: number; customer: number }) =>
  s.ok('POST', `/subscriptions/${sub.id}/purge.json?ack=${sub.customer}`, undefined, 200);

/** The stored batch row of a kind (to check what an export keeps). */
function storedBatch(s: Site, kind: Kind, id: number): unknown {
  const table = kind === 'invoices' ? s.state.tables.invoiceExports : s.state.tables.subscriptionExports;
  return listGet(table.rows, id - 1);
}

describe('invoice and subscription exports', () => {
  it('start a complete batch of every invoice and every subscription, rows as their own reads present them', () => {
    const { s, subs } = withSubscriptions(3);
    const invoices = allInvoices(s);
    expect(invoices).toHaveLength(3);
    for (const kind of KINDS) {
      const called = s.request('POST', `/api_exports/${kind}.json`);
      expect(called.status).toBe(201);
      expect(called.events).toEqual([]);
      expect(called.body).toEqual({
        batchjob: {
          id: 1,
          created_at: '2026-01-15T12:00:00Z',
          finished_at: '2026-01-15T12:00:00Z',
          row_count: 3,
          completed: 'true',
        },
      });
      expect(s.ok('GET', `/api_exports/${kind}/1.json`)).toEqual(called.body);
    }
    expect(rows(s, 'invoices', 1)).toEqual(
      invoices.map((row) => s.ok('GET', `/invoices/${get(row, 'uid')}.json`)),
    );
    expect(rows(s, 'subscriptions', 1)).toEqual(subs.map((sub) => s.subscription(sub.id)));
    expect(rows(s, 'subscriptions', 1, '')).toEqual(arr(s.ok('GET', '/api_exports/subscriptions/1/rows')));
  });

  it('keep the rows that existed when started: later rows stay out, later changes show on the row', () => {
    const { s, product, subs } = withSubscriptions(2);
    start(s, 'subscriptions');
    start(s, 'invoices');
    s.subscribed(product);
    s.ok('DELETE', `/subscriptions/${subs[0]?.id}.json`, undefined, 200);
    const exported = rows(s, 'subscriptions', 1);
    expect(exported.map((row) => [get(row, 'id'), get(row, 'state')])).toEqual([
      [subs[0]?.id, 'canceled'],
      [subs[1]?.id, 'active'],
    ]);
    expect(rows(s, 'invoices', 1)).toHaveLength(2);
    expect(get(s.ok('GET', '/api_exports/subscriptions/1.json'), 'batchjob', 'row_count')).toBe(2);
    expect(get(start(s, 'subscriptions'), 'batchjob')).toMatchObject({ id: 2, row_count: 3 });
    expect(get(start(s, 'invoices'), 'batchjob')).toMatchObject({ id: 2, row_count: 3 });
  });

  it('keep runs of ids, not rows: a table never purged is one run, whatever its size', () => {
    const { s } = withSubscriptions(5);
    start(s, 'invoices');
    start(s, 'subscriptions');
    for (const kind of KINDS) expect(storedBatch(s, kind, 1)).toMatchObject({ rowCount: 5, runs: [0, 1] });
    const empty = site();
    for (const kind of KINDS) {
      expect(get(start(empty, kind), 'batchjob', 'row_count')).toBe(0);
      expect(storedBatch(empty, kind, 1)).toMatchObject({ rowCount: 0, runs: [] });
      expect(rows(empty, kind, 1)).toEqual([]);
    }
  });

  it('leave out rows purged before the export, and page across the gap', () => {
    const { s, subs } = withSubscriptions(5);
    purge(s, subs[1] as { id: number; customer: number });
    purge(s, subs[2] as { id: number; customer: number });
    start(s, 'subscriptions');
    expect(storedBatch(s, 'subscriptions', 1)).toMatchObject({ rowCount: 3, runs: [0, 1, 1, 4] });
    const ids = (query: string) => rows(s, 'subscriptions', 1, query).map((row) => get(row, 'id'));
    expect(ids('')).toEqual([subs[0]?.id, subs[3]?.id, subs[4]?.id]);
    expect(ids('?per_page=2&page=1')).toEqual([subs[0]?.id, subs[3]?.id]);
    expect(ids('?per_page=2&page=2')).toEqual([subs[4]?.id]);
    expect(ids('?per_page=2&page=3')).toEqual([]);
    expect(get(start(s, 'invoices'), 'batchjob', 'row_count')).toBe(3);
    expect(rows(s, 'invoices', 1)).toEqual(allInvoices(s));
  });

  it('leave out of its page a row purged after the export; the other rows keep their pages', () => {
    const { s, subs } = withSubscriptions(4);
    start(s, 'subscriptions');
    start(s, 'invoices');
    purge(s, subs[0] as { id: number; customer: number });
    expect(rows(s, 'subscriptions', 1, '?per_page=2&page=1').map((row) => get(row, 'id'))).toEqual([
      subs[1]?.id,
    ]);
    expect(rows(s, 'subscriptions', 1, '?per_page=2&page=2').map((row) => get(row, 'id'))).toEqual([
      subs[2]?.id,
      subs[3]?.id,
    ]);
    expect(rows(s, 'invoices', 1)).toHaveLength(3);
    expect(get(s.ok('GET', '/api_exports/invoices/1.json'), 'batchjob', 'row_count')).toBe(4);
  });

  it('number each kind of batch on its own and answer 404 for a batch of another kind', () => {
    const { s } = withSubscriptions(1);
    start(s, 'invoices');
    start(s, 'invoices');
    expect(get(start(s, 'subscriptions'), 'batchjob', 'id')).toBe(1);
    expect(get(s.ok('POST', '/api_exports/proforma_invoices.json'), 'batchjob', 'id')).toBe(1);
    s.ok('GET', '/api_exports/invoices/2.json');
    for (const path of ['/api_exports/subscriptions/2', '/api_exports/proforma_invoices/2'])
      for (const suffix of ['.json', '/rows', '/rows.json'])
        s.fail('GET', `${path}${suffix}`, undefined, 404);
    for (const kind of KINDS)
      for (const ref of ['0', 'x', '-1', '1.5', '99'])
        expect(s.fail('GET', `/api_exports/${kind}/${ref}.json`, undefined, 404)).toEqual({
          errors: ['Batch job not found.'],
        });
  });

  it('page rows: per_page defaults to 100 and is clamped to 10,000; bad paging is a 422 that changes nothing', () => {
    const { s } = withSubscriptions(3);
    for (const kind of KINDS) {
      start(s, kind);
      expect(rows(s, kind, 1, '?per_page=20000')).toHaveLength(3);
      expect(rows(s, kind, 1, '?page=1000000000')).toEqual([]);
      for (const query of ['?page=0', '?page=x', '?per_page=0', '?per_page=-5', '?per_page=1.5'])
        s.fail('GET', `/api_exports/${kind}/1/rows${query}`, undefined, 422);
      const before = s.state;
      s.ok('GET', `/api_exports/${kind}/1.json`);
      rows(s, kind, 1);
      expect(s.state).toBe(before);
      s.fail('PUT', `/api_exports/${kind}/1/rows`, undefined, 405);
    }
  });

  it('present 101 rows as a first page of the default 100 and a second of one', () => {
    const s = site();
    const product = s.product();
    const customer = s.customer();
    for (let i = 0; i < 101; i += 1)
      s.subscribe({ product_id: product, customer_id: customer, payment_collection_method: 'remittance' });
    start(s, 'subscriptions');
    expect(rows(s, 'subscriptions', 1)).toHaveLength(100);
    expect(rows(s, 'subscriptions', 1, '?page=2').map((row) => get(row, 'id'))).toEqual([101]);
  });
});

describe('export laws', () => {
  test.prop(
    [
      fc.array(fc.boolean(), { minLength: 0, maxLength: 9 }),
      fc.integer({ min: 1, max: 4 }),
      fc.constantFrom(...KINDS),
    ],
    { numRuns: 12 },
  )(
    'pages in order concatenate to every row the listing held when the export started, once each',
    (purged, perPage, kind) => {
      const { s, subs } = withSubscriptions(purged.length);
      purged.forEach((gone, at) => {
        if (gone) purge(s, subs[at] as { id: number; customer: number });
      });
      const listed = kind === 'invoices' ? allInvoices(s) : allSubscriptions(s);
      const batch = num(start(s, kind), 'batchjob', 'id');
      expect(get(s.ok('GET', `/api_exports/${kind}/${batch}.json`), 'batchjob', 'row_count')).toBe(
        listed.length,
      );
      const pages: unknown[][] = [];
      for (let page = 1; page <= Math.ceil(listed.length / perPage) + 1; page += 1)
        pages.push(rows(s, kind, batch, `?per_page=${perPage}&page=${page}`));
      // Full pages but the last with rows: no page is short for a row purged before the export.
      for (const page of pages.slice(0, -2)) expect(page).toHaveLength(perPage);
      for (const page of pages) expect(page.length).toBeLessThanOrEqual(perPage);
      expect(pages.at(-1)).toEqual([]);
      expect(pages.flat()).toEqual(listed);
      expect(checkState(s.state)).toEqual([]);
    },
  );
});

describe('export invariants', () => {
  it('find batches whose runs do not describe ids in order', () => {
    const { s } = withSubscriptions(3);
    start(s, 'subscriptions');
    expect(checkExports(s.state)).toEqual([]);
    const broken = (batch: Record<string, unknown>) => {
      const state = structuredClone(s.state);
      const chunk = state.tables.subscriptionExports.rows.chunks[0] as (Record<string, unknown> | null)[];
      chunk[0] = { ...chunk[0], ...batch };
      return checkExports(state);
    };
    expect(broken({ runs: [0, 1, 2] })).toEqual(['subscriptionExports 1: its runs are not pairs']);
    expect(broken({ runs: [] })).toEqual(['subscriptionExports 1: it holds 3 rows and no run']);
    expect(broken({ runs: [1, 1] })).toEqual([
      'subscriptionExports 1: its first run does not start at position 0',
    ]);
    expect(broken({ runs: [0, 1, 1, 2] })).toEqual([
      'subscriptionExports 1: its run at position 1 does not follow a gap',
    ]);
    expect(broken({ runs: [0, 3, 1, 2] })).toEqual([
      'subscriptionExports 1: its run at position 1 does not follow a gap',
    ]);
    expect(broken({ runs: [0, 1, 3, 5] })).toEqual(['subscriptionExports 1: its run at position 3 is empty']);
    expect(broken({ runs: [0, 2] })).toEqual([
      'subscriptionExports 1: it holds id 4, which its table never gave',
    ]);
    expect(broken({ runs: undefined, invoiceIds: [2, 1, 3] })).toEqual([
      'subscriptionExports 1: its listed ids are not its rows in id order',
    ]);
  });
});
