import { describe, expect, it } from 'vitest';
import { arr, errorsOf, get, num, site } from '../../helpers/api.js';

describe('product families', () => {
  it('creates a family (201) with the product_family envelope', () => {
    const s = site();
    const body = s.ok('POST', '/product_families.json', {
      product_family: {
        name: 'Acme Plans',
        handle: 'plans',
        description: 'All plans',
        accounting_code: 'AC1',
      },
    });
    expect(body).toMatchObject({
      product_family: {
        id: 1,
        name: 'Acme Plans',
        handle: 'plans',
        description: 'All plans',
        accounting_code: 'AC1',
        created_at: '2026-01-15T12:00:00Z',
      },
    });
  });

  it('derives the handle from the name when none is given', () => {
    const body = site().ok('POST', '/product_families.json', { product_family: { name: 'Gold Plans!' } });
    expect(get(body, 'product_family', 'handle')).toBe('gold-plans');
  });

  it('refuses a duplicate handle with 422 and leaves the state as it was', () => {
    const s = site();
    s.family('plans');
    const body = s.fail(
      'POST',
      '/product_families.json',
      { product_family: { name: 'X', handle: 'plans' } },
      422,
    );
    expect(errorsOf(body)).toMatch(/taken/);
  });

  it('refuses a blank name and an invalid handle with 422', () => {
    const s = site();
    s.fail('POST', '/product_families.json', { product_family: { name: '' } }, 422);
    s.fail('POST', '/product_families.json', { product_family: { name: 'A', handle: 'Bad Handle' } }, 422);
    s.fail('POST', '/product_families.json', {}, 422);
  });

  it('lists families in id order', () => {
    const s = site();
    s.family('a');
    s.family('b');
    const list = arr(s.ok('GET', '/product_families.json'));
    expect(list.map((item) => get(item, 'product_family', 'handle'))).toEqual(['a', 'b']);
  });

  it('reads a family by id, by handle:x and by the percent-encoded handle%3Ax', () => {
    const s = site();
    s.family('other');
    const id = s.family('plans');
    for (const ref of [String(id), 'handle:plans', 'handle%3Aplans']) {
      const body = s.ok('GET', `/product_families/${ref}.json`);
      expect(num(body, 'product_family', 'id'), ref).toBe(id);
    }
  });

  it('answers 404 for an unknown id or handle', () => {
    const s = site();
    s.family('plans');
    for (const ref of ['99', 'handle:nope', '0', 'abc']) {
      expect(s.fail('GET', `/product_families/${ref}.json`, undefined, 404)).toEqual({
        errors: ['Product family not found.'],
      });
    }
  });
});
