/**
 * Churn reason codes through the public API: create (placed last unless a position is given), list in
 * position order with paging, read, update, delete, and every refusal answering the right status while
 * changing nothing.
 */
import { describe, expect, it } from 'vitest';
import { MAX_REASON_CODES } from '../../../src/domain/reason-code/types.js';
import { arr, get, num, type Site, site, str } from '../../helpers/api.js';

const create = (s: Site, code: string, extra: Record<string, unknown> = {}) =>
  num(
    s.ok('POST', '/reason_codes.json', { reason_code: { code, description: `${code} reason`, ...extra } }),
    'reason_code',
    'id',
  );

const listedCodes = (s: Site, query = '') =>
  arr(s.ok('GET', `/reason_codes.json${query}`)).map((entry) => str(entry, 'reason_code', 'code'));

describe('reason codes', () => {
  it('creates a code with every field of the official response', () => {
    const s = site({ id: 7, timeZone: 'America/New_York' }, '2026-03-02T15:00:00Z');
    const body = s.ok('POST', '/reason_codes.json', {
      reason_code: { code: 'PRICE', description: 'Too expensive', position: 3 },
    });
    expect(body).toEqual({
      reason_code: {
        id: 1,
        site_id: 7,
        code: 'PRICE',
        description: 'Too expensive',
        position: 3,
        created_at: '2026-03-02T10:00:00-05:00',
        updated_at: '2026-03-02T10:00:00-05:00',
      },
    });
  });

  it('places a code without a position after every other one, and lists by position then age', () => {
    const s = site();
    create(s, 'A', { position: 5 });
    const b = create(s, 'B');
    expect(num(s.ok('GET', `/reason_codes/${b}.json`), 'reason_code', 'position')).toBe(6);
    create(s, 'C', { position: '2' });
    create(s, 'D', { position: 5 });
    expect(listedCodes(s)).toEqual(['C', 'A', 'D', 'B']);
    expect(listedCodes(s, '?per_page=2&page=2')).toEqual(['D', 'B']);
    expect(listedCodes(s, '?page=3&per_page=2')).toEqual([]);
  });

  it('reads, updates only the fields given, and deletes', () => {
    const s = site();
    const id = create(s, 'MOVE');
    s.at('2026-01-16T12:00:00Z');
    const updated = get(
      s.ok('PUT', `/reason_codes/${id}.json`, { reason_code: { description: 'Moved away', position: 9 } }),
      'reason_code',
    );
    expect(updated).toMatchObject({ id, code: 'MOVE', description: 'Moved away', position: 9 });
    expect(str(updated, 'updated_at')).toBe('2026-01-16T12:00:00Z');
    expect(str(updated, 'created_at')).toBe('2026-01-15T12:00:00Z');
    const renamed = s.ok('PUT', `/reason_codes/${id}.json`, { reason_code: { code: ' RELOCATED ' } });
    expect(get(renamed, 'reason_code', 'code')).toBe('RELOCATED');
    expect(s.ok('GET', `/reason_codes/${id}.json`)).toEqual(renamed);
    expect(s.ok('DELETE', `/reason_codes/${id}.json`)).toEqual({ ok: 'ok' });
    s.fail('GET', `/reason_codes/${id}.json`, undefined, 404);
    s.fail('DELETE', `/reason_codes/${id}.json`, undefined, 404);
    expect(listedCodes(s)).toEqual([]);
  });

  it('an update naming no field answers the code unchanged and changes nothing', () => {
    const s = site();
    const id = create(s, 'SAME');
    const before = s.state;
    const answered = s.request('PUT', `/reason_codes/${id}.json`, { reason_code: {} });
    expect(answered.status).toBe(200);
    expect(get(answered.body, 'reason_code', 'code')).toBe('SAME');
    expect(answered.state).toBe(before);
  });

  it('keeps codes unique within the site, and a freed code can be used again', () => {
    const s = site();
    const first = create(s, 'DUP');
    const other = create(s, 'OTHER');
    expect(
      s.fail('POST', '/reason_codes.json', { reason_code: { code: 'DUP', description: 'x' } }, 422),
    ).toEqual({
      errors: ['Code: has already been taken.'],
    });
    s.fail('PUT', `/reason_codes/${other}.json`, { reason_code: { code: 'DUP' } }, 422);
    s.ok('PUT', `/reason_codes/${first}.json`, {
      reason_code: { code: 'DUP', description: 'same code kept' },
    });
    s.ok('DELETE', `/reason_codes/${first}.json`);
    create(s, 'DUP');
  });

  it('refuses bad bodies with 422 and unknown ids with 404, changing nothing', () => {
    const s = site();
    const id = create(s, 'OK');
    for (const body of [
      undefined,
      {},
      { reason_code: { description: 'no code' } },
      { reason_code: { code: 'NO_DESCRIPTION' } },
      { reason_code: { code: '  ', description: 'blank code' } },
      { reason_code: { code: 'X', description: '' } },
      { reason_code: { code: 'x'.repeat(256), description: 'too long' } },
      { reason_code: { code: 'X', description: 'd', position: 0 } },
      { reason_code: { code: 'X', description: 'd', position: 1.5 } },
      { reason_code: { code: 'X', description: 'd', position: 'first' } },
      { reason_code: { code: 7, description: 'd' } },
    ])
      s.fail('POST', '/reason_codes.json', body, 422);
    s.fail('PUT', `/reason_codes/${id}.json`, { reason_code: { description: ' ' } }, 422);
    s.fail('PUT', `/reason_codes/${id}.json`, {}, 422);
    for (const ref of ['999', '0', '-1', 'abc', 'handle:OK'])
      s.fail('PUT', `/reason_codes/${ref}.json`, { reason_code: { code: 'Y' } }, 404);
    s.fail('GET', '/reason_codes.json?per_page=0', undefined, 422);
    s.fail('GET', '/reason_codes.json?page=x', undefined, 422);
    expect(listedCodes(s)).toEqual(['OK']);
  });
});

describe('reason codes and the site', () => {
  it(`keeps at most ${MAX_REASON_CODES} codes, refusing one more and accepting it once one is deleted`, () => {
    const s = site();
    for (let n = 1; n <= MAX_REASON_CODES; n += 1) create(s, `C${n}`);
    s.fail('POST', '/reason_codes.json', { reason_code: { code: 'ONE_MORE', description: 'x' } }, 422);
    s.ok('DELETE', '/reason_codes/1.json');
    const lastPage = arr(s.ok('GET', '/reason_codes.json?per_page=200&page=5'));
    expect(lastPage).toHaveLength(MAX_REASON_CODES - 1 - 4 * 200);
    expect(num(lastPage.at(-1), 'reason_code', 'position')).toBe(MAX_REASON_CODES);
    create(s, 'ONE_MORE');
  });

  it('a cancellation may name a listed code or any other text, as before codes were kept', () => {
    const s = site();
    create(s, 'PRICE');
    const product = s.product({ price_in_cents: 1000 });
    for (const [path, reason] of [
      ['', 'PRICE'],
      ['', 'NOT_LISTED'],
      ['/delayed_cancel', 'PRICE'],
      ['/delayed_cancel', 'NOT_LISTED'],
    ] as const) {
      const { id } = s.subscribed(product);
      const method = path === '' ? 'DELETE' : 'POST';
      s.ok(method, `/subscriptions/${id}${path}.json`, { subscription: { reason_code: reason } }, 200);
      const subscription = s.subscription(id);
      if (path === '') expect(get(subscription, 'state')).toBe('canceled');
      else expect(get(subscription, 'cancel_at_end_of_period')).toBe(true);
    }
  });
});
