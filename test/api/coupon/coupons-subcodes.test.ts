import { describe, expect, it } from 'vitest';
import { arr, num, type Site, site } from '../../helpers/api.js';

function couponIn(s: Site, code = 'MASTER'): { family: number; id: number } {
  const family = s.family();
  const body = s.ok('POST', `/product_families/${family}/coupons.json`, {
    coupon: { name: code, code, amount_in_cents: 500 },
  });
  return { family, id: num(body, 'coupon', 'id') };
}

const codes = (s: Site, id: number, query = '') =>
  arr(s.ok('GET', `/coupons/${id}/codes.json${query}`), 'codes');

describe('coupon subcodes', () => {
  it('creates subcodes (201): upper-cased, sorting out duplicates and invalid codes', () => {
    const s = site();
    const { id } = couponIn(s);
    const other = couponIn(s, 'OTHER').id;
    s.ok('POST', `/coupons/${other}/codes.json`, { codes: ['taken'] });
    const body = s.ok('POST', `/coupons/${id}/codes.json`, {
      codes: [
        'spring',
        '20%off',
        'a@b.c+d-e_f',
        'SPRING',
        'master',
        'taken',
        'two words',
        '',
        'ünï',
        42,
        true,
      ],
    });
    expect(body).toEqual({
      created_codes: ['SPRING', '20%OFF', 'A@B.C+D-E_F', '42'],
      duplicate_codes: ['SPRING', 'MASTER', 'TAKEN'],
      invalid_codes: ['two words', '', 'ünï', 'true'],
    });
    expect(codes(s, id)).toEqual(['SPRING', '20%OFF', 'A@B.C+D-E_F', '42']);
    const again = s.ok('POST', `/coupons/${id}/codes.json`, { codes: ['spring'] });
    expect(again).toEqual({ created_codes: [], duplicate_codes: ['SPRING'], invalid_codes: [] });
  });

  it('keeps subcodes and coupon codes in one namespace', () => {
    const s = site();
    const { id, family } = couponIn(s);
    s.ok('POST', `/coupons/${id}/codes.json`, { codes: ['SUB'] });
    const refused = s.fail(
      'POST',
      `/product_families/${family}/coupons.json`,
      {
        coupon: { name: 'x', code: 'sub', percentage: 1 },
      },
      422,
    );
    expect(refused).toEqual({ errors: ['Code: must be unique - that value has been taken.'] });
  });

  it('lists subcodes 20 a page by default', () => {
    const s = site();
    const { id } = couponIn(s);
    const many = Array.from({ length: 25 }, (_, i) => `CODE${String(i).padStart(2, '0')}`);
    s.ok('POST', `/coupons/${id}/codes.json`, { codes: many });
    expect(codes(s, id)).toEqual(many.slice(0, 20));
    expect(codes(s, id, '?page=2')).toEqual(many.slice(20));
    expect(codes(s, id, '?per_page=3&page=2')).toEqual(many.slice(3, 6));
    expect(codes(s, couponIn(s, 'EMPTY').id)).toEqual([]);
  });

  it('replaces all subcodes with PUT (200), freeing the old ones', () => {
    const s = site();
    const { id } = couponIn(s);
    const other = couponIn(s, 'OTHER').id;
    s.ok('POST', `/coupons/${id}/codes.json`, { codes: ['KEEP', 'DROP'] });
    const body = s.ok('PUT', `/coupons/${id}/codes.json`, {
      codes: ['keep', 'new', 'new', 'other', 'no way'],
    });
    expect(body).toEqual({
      created_codes: ['KEEP', 'NEW'],
      duplicate_codes: ['NEW', 'OTHER'],
      invalid_codes: ['no way'],
    });
    expect(codes(s, id)).toEqual(['KEEP', 'NEW']);
    expect(s.ok('POST', `/coupons/${other}/codes.json`, { codes: ['drop'] })).toMatchObject({
      created_codes: ['DROP'],
    });
    s.ok('GET', '/coupons/validate.json?code=keep');
    expect(s.ok('PUT', `/coupons/${id}/codes.json`, { codes: [] })).toEqual({
      created_codes: [],
      duplicate_codes: [],
      invalid_codes: [],
    });
    expect(codes(s, id)).toEqual([]);
  });

  it('deletes a subcode named with percent-encoded % @ + - _ . (200), in any case', () => {
    const s = site();
    const { id } = couponIn(s);
    s.ok('POST', `/coupons/${id}/codes.json`, { codes: ['20%OFF', 'A@B.C+D-E_F', 'PLAIN'] });
    s.ok('DELETE', `/coupons/${id}/codes/20%25OFF.json`);
    s.ok('DELETE', `/coupons/${id}/codes/a%40b%2Ec%2Bd%2De%5Ff.json`);
    expect(codes(s, id)).toEqual(['PLAIN']);
    s.fail('DELETE', `/coupons/${id}/codes/20%25OFF.json`, undefined, 404);
    s.fail('GET', '/coupons/validate.json?code=20%25OFF', undefined, 404);
    s.fail('DELETE', `/coupons/${id}/codes/MASTER.json`, undefined, 404);
    const other = couponIn(s, 'OTHER').id;
    s.fail('DELETE', `/coupons/${other}/codes/PLAIN.json`, undefined, 404);
    s.fail('DELETE', '/coupons/99/codes/PLAIN.json', undefined, 404);
  });

  it('refuses a body without codes (422) and an unknown coupon (404)', () => {
    const s = site();
    const { id } = couponIn(s);
    s.fail('POST', `/coupons/${id}/codes.json`, {}, 422);
    s.fail('PUT', `/coupons/${id}/codes.json`, { codes: 'A' }, 422);
    s.fail('POST', '/coupons/99/codes.json', { codes: ['A'] }, 404);
    s.fail('GET', '/coupons/99/codes.json', undefined, 404);
    s.fail('PUT', '/coupons/99/codes.json', { codes: ['A'] }, 404);
  });
});
