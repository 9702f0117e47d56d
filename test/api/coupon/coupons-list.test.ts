import { describe, expect, it } from 'vitest';
import { arr, num, site } from '../../helpers/api.js';
import { catalog, create, percentCoupon } from './coupons-fixtures.js';

describe('coupons: list', () => {
  const ids = (body: unknown) => arr(body).map((item) => num(item, 'coupon', 'id'));

  it("lists the site's or a family's coupons, 30 a page by default, archived ones on request", () => {
    const s = site();
    const { family } = catalog(s);
    const other = s.family('other');
    for (let i = 1; i <= 32; i += 1)
      create(s, i % 2 === 0 ? family : other, { coupon: { ...percentCoupon, code: `C${i}` } });
    expect(ids(s.ok('GET', '/coupons.json'))).toHaveLength(30);
    expect(ids(s.ok('GET', '/coupons.json?page=2'))).toEqual([31, 32]);
    expect(ids(s.ok('GET', '/coupons.json?per_page=500'))).toHaveLength(32);
    expect(ids(s.ok('GET', `/product_families/${family}/coupons.json?per_page=3`))).toEqual([2, 4, 6]);
    s.ok('DELETE', `/product_families/${family}/coupons/2.json`);
    expect(ids(s.ok('GET', `/product_families/${family}/coupons.json?per_page=2`))).toEqual([4, 6]);
    expect(
      ids(s.ok('GET', `/product_families/${family}/coupons.json?per_page=2&filter[include_archived]=true`)),
    ).toEqual([2, 4]);
    s.fail('GET', '/product_families/99/coupons.json', undefined, 404);
    s.fail('GET', '/coupons.json?page=0', undefined, 422);
  });

  it('filters by ids, codes (any case), created or updated dates and use_site_exchange_rate', () => {
    const s = site({ timeZone: 'America/New_York' }, '2026-01-01T00:00:00Z');
    const { family } = catalog(s);
    for (const [i, at] of [
      '2026-01-10T12:00:00Z',
      '2026-01-11T03:00:00Z',
      '2026-01-12T12:00:00Z',
    ].entries()) {
      s.at(at);
      create(s, family, { coupon: { ...percentCoupon, code: `D${i + 1}` } });
    }
    s.at('2026-01-13T12:00:00Z');
    s.ok('PUT', `/product_families/${family}/coupons/1.json`, { coupon: { name: 'touched' } });
    expect(ids(s.ok('GET', '/coupons.json?filter[ids]=1,3'))).toEqual([1, 3]);
    expect(ids(s.ok('GET', '/coupons.json?filter[codes]=d2,D3'))).toEqual([2, 3]);
    // 03:00 UTC on the 11th is still the 10th in New York.
    expect(
      ids(s.ok('GET', '/coupons.json?filter[start_date]=2026-01-10&filter[end_date]=2026-01-10')),
    ).toEqual([1, 2]);
    expect(ids(s.ok('GET', '/coupons.json?filter[start_datetime]=2026-01-12T12:00:00Z'))).toEqual([3]);
    expect(ids(s.ok('GET', '/coupons.json?filter[end_datetime]=2026-01-10T22:00:00-05:00'))).toEqual([1, 2]);
    expect(
      ids(s.ok('GET', '/coupons.json?filter[date_field]=updated_at&filter[start_date]=2026-01-13')),
    ).toEqual([1]);
    expect(ids(s.ok('GET', '/coupons.json?date_field=updated_at&start_date=2026-01-13'))).toEqual([1]);
    expect(ids(s.ok('GET', '/coupons.json?filter[use_site_exchange_rate]=false'))).toEqual([]);
    s.fail('GET', '/coupons.json?filter[date_field]=archived_at', undefined, 422);
    s.fail('GET', '/coupons.json?filter[start_date]=2026-13-01', undefined, 422);
    s.fail('GET', '/coupons.json?filter[end_datetime]=nope', undefined, 422);
    s.fail('GET', '/coupons.json?filter[ids]=1,x', undefined, 422);
  });
});
