import { test } from '@fast-check/vitest';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arr, get, num, type Site, site, str, T0 } from '../../helpers/api.js';

/** A site with one remittance subscription and `count` proforma invoices of it; returns their uids. */
function withProformas(count: number): { s: Site; id: number; uids: string[] } {
  const s = site();
  const product = s.product();
  const customer = s.customer();
  const id = num(
    s.subscribe({ product_id: product, customer_id: customer, payment_collection_method: 'remittance' }),
    'subscription',
    'id',
  );
  const uids: string[] = [];
  for (let i = 0; i < count; i += 1)
    uids.push(str(s.ok('POST', `/subscriptions/${id}/proforma_invoices.json`), 'uid'));
  return { s, id, uids };
}

const startExport = (s: Site) => s.ok('POST', '/api_exports/proforma_invoices.json');
const rowUids = (body: unknown) => arr(body).map((row) => get(row, 'uid'));

describe('proforma invoice exports', () => {
  it('starts a batch that is complete at once, holding the proforma invoices not voided', () => {
    const { s, uids } = withProformas(3);
    s.ok('POST', `/proforma_invoices/${uids[1]}/void.json`, { void: { reason: 'no' } }, 200);
    const called = s.request('POST', '/api_exports/proforma_invoices.json');
    expect(called.status).toBe(201);
    expect(called.events).toEqual([]);
    expect(called.body).toEqual({
      batchjob: {
        id: 1,
        created_at: '2026-01-15T12:00:00Z',
        finished_at: '2026-01-15T12:00:00Z',
        row_count: 2,
        completed: 'true',
      },
    });
    expect(s.ok('GET', '/api_exports/proforma_invoices/1.json')).toEqual(called.body);
    expect(rowUids(s.ok('GET', '/api_exports/proforma_invoices/1/rows'))).toEqual([uids[0], uids[2]]);
    expect(get(startExport(s), 'batchjob', 'id')).toBe(2);
  });

  it('answers rows with or without the .json suffix, as bare proforma invoices', () => {
    const { s, uids } = withProformas(2);
    startExport(s);
    const plain = s.ok('GET', '/api_exports/proforma_invoices/1/rows');
    expect(s.ok('GET', '/api_exports/proforma_invoices/1/rows.json')).toEqual(plain);
    expect(plain).toEqual(uids.map((uid) => s.ok('GET', `/proforma_invoices/${uid}.json`)));
  });

  it('keeps the rows it snapshot: later proformas stay out, later voids show on the row', () => {
    const { s, id, uids } = withProformas(2);
    startExport(s);
    s.ok('POST', `/subscriptions/${id}/proforma_invoices.json`);
    s.ok('POST', `/proforma_invoices/${uids[0]}/void.json`, { void: { reason: 'late' } }, 200);
    const rows = arr(s.ok('GET', '/api_exports/proforma_invoices/1/rows'));
    expect(rows.map((row) => [get(row, 'uid'), get(row, 'status')])).toEqual([
      [uids[0], 'voided'],
      [uids[1], 'draft'],
    ]);
    expect(get(startExport(s), 'batchjob', 'row_count')).toBe(2);
  });

  it('pages rows: per_page defaults to 100 and is clamped to 10,000; beyond the end an empty array', () => {
    const { s } = withProformas(102);
    startExport(s);
    const rows = (query: string) => arr(s.ok('GET', `/api_exports/proforma_invoices/1/rows.json${query}`));
    expect(rows('')).toHaveLength(100);
    expect(rows('?page=2')).toHaveLength(2);
    expect(rows('?page=3')).toEqual([]);
    expect(rows('?per_page=20000')).toHaveLength(102);
    expect(rows('?per_page=250')).toHaveLength(102);
    expect(rows('?per_page=40&page=3').map((row) => get(row, 'number'))).toEqual([
      81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96, 97, 98, 99, 100, 101, 102,
    ]);
    expect(rows('?page=1000000000')).toEqual([]);
    for (const query of ['?page=0', '?page=x', '?per_page=0', '?per_page=-5', '?per_page=1.5'])
      s.fail('GET', `/api_exports/proforma_invoices/1/rows${query}`, undefined, 422);
  });

  /** A site whose proforma batch 1 is replaced by `batch` (written straight into the plain JSON state). */
  function withStoredBatch(batch: Record<string, unknown>): Site {
    const { s } = withProformas(1);
    startExport(s);
    const state = structuredClone(s.state);
    const chunk = state.tables.proformaExports.rows.chunks[0] as (Record<string, unknown> | null)[];
    chunk[0] = { id: 1, createdAt: T0, finishedAt: T0, ...batch };
    s.state = state;
    return s;
  }

  it('clamps per_page to 10,000', () => {
    // 10,001 runs of one row each, all the one proforma.
    const runs = Array.from({ length: 10_001 }, (_, at) => [at, 1]).flat();
    const s = withStoredBatch({ rowCount: 10_001, runs });
    const rows = (query: string) => arr(s.ok('GET', `/api_exports/proforma_invoices/1/rows${query}`));
    expect(rows('?per_page=20000')).toHaveLength(10_000);
    expect(rows('?per_page=20000&page=2')).toHaveLength(1);
  });

  it('reads a batch an earlier version stored id by id', () => {
    const s = withStoredBatch({ rowCount: 10_001, invoiceIds: Array.from({ length: 10_001 }, () => 1) });
    const rows = (query: string) => arr(s.ok('GET', `/api_exports/proforma_invoices/1/rows${query}`));
    expect(rows('?per_page=20000')).toHaveLength(10_000);
    expect(rows('?per_page=20000&page=2')).toHaveLength(1);
    expect(get(s.ok('GET', '/api_exports/proforma_invoices/1.json'), 'batchjob', 'row_count')).toBe(10_001);
  });

  it('keeps the ids it holds as runs: voided proformas split them', () => {
    const { s, uids } = withProformas(5);
    s.ok('POST', `/proforma_invoices/${uids[2]}/void.json`, { void: { reason: 'no' } }, 200);
    startExport(s);
    expect(s.state.tables.proformaExports.rows.chunks[0]?.[0]).toMatchObject({
      rowCount: 4,
      runs: [0, 1, 2, 4],
    });
  });

  it('exports an empty site as an empty batch', () => {
    const s = site();
    expect(get(startExport(s), 'batchjob', 'row_count')).toBe(0);
    expect(s.ok('GET', '/api_exports/proforma_invoices/1/rows')).toEqual([]);
  });

  it('answers 404 for an unknown batch, and leaves the state object identical on reads', () => {
    const { s } = withProformas(1);
    startExport(s);
    for (const ref of ['2', '0', 'x', '-1']) {
      s.fail('GET', `/api_exports/proforma_invoices/${ref}.json`, undefined, 404);
      s.fail('GET', `/api_exports/proforma_invoices/${ref}/rows`, undefined, 404);
      s.fail('GET', `/api_exports/proforma_invoices/${ref}/rows.json`, undefined, 404);
    }
    const before = s.state;
    s.ok('GET', '/api_exports/proforma_invoices/1.json');
    s.ok('GET', '/api_exports/proforma_invoices/1/rows');
    expect(s.state).toBe(before);
    s.fail('PUT', '/api_exports/proforma_invoices/1/rows', undefined, 405);
    s.fail('GET', '/api_exports/proforma_invoices/1/rows.xml', undefined, 404);
  });
});

describe('proforma invoice export laws', () => {
  test.prop([fc.integer({ min: 0, max: 25 }), fc.integer({ min: 1, max: 30 })], { numRuns: 25 })(
    'rows paging partitions the batch: pages in order concatenate to every row once, each at most per_page',
    (count, perPage) => {
      const { s, uids } = withProformas(count);
      startExport(s);
      const pages: unknown[][] = [];
      for (let page = 1; page <= Math.ceil(count / perPage) + 1; page += 1)
        pages.push(
          arr(s.ok('GET', `/api_exports/proforma_invoices/1/rows?per_page=${perPage}&page=${page}`)),
        );
      for (const page of pages) expect(page.length).toBeLessThanOrEqual(perPage);
      expect(pages.at(-1)).toEqual([]);
      expect(pages.flat().map((row) => get(row, 'uid'))).toEqual(uids);
    },
  );
});
