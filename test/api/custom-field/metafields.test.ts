/**
 * Metafields through the public API: create (one or several), list with paging, name filter and
 * direction, update and rename, delete with the values held in them, and the refusals (the official
 * `{error}` body for a 422) that change nothing.
 */
import { describe, expect, it } from 'vitest';
import { checkState } from '../../../src/testing/index.js';
import { arr, get, num, site, str } from '../../helpers/api.js';

const hidden = {
  csv: '0',
  invoices: '0',
  statements: '0',
  portal: '0',
  public_show: '0',
  public_edit: '0',
  hosted: [],
};

describe('creating metafields', () => {
  it('creates one field from an object and answers the list the SDK reads', () => {
    const s = site();
    const body = s.ok('POST', '/subscriptions/metafields.json', { metafields: { name: 'Color' } });
    expect(body).toEqual([
      { id: 1, name: 'Color', scope: hidden, data_count: 0, input_type: 'text', enum: null },
    ]);
  });

  it('creates several fields, with choices for radio and dropdown fields and a scope', () => {
    const s = site();
    const body = arr(
      s.ok('POST', '/customers/metafields.json', {
        metafields: [
          { name: 'tier', input_type: 'radio', enum: ['gold', '', 'silver', 'gold'] },
          { name: 'region', input_type: 'dropdown', enum: ['eu', 'us'], scope: { csv: '1', hosted: [7] } },
          { name: 'notes', input_type: 'text', enum: ['ignored'] },
        ],
      }),
    );
    expect(body.map((field) => get(field, 'enum'))).toEqual([['gold', 'silver'], ['eu', 'us'], null]);
    expect(get(body[1], 'scope')).toEqual({ ...hidden, csv: '1', hosted: ['7'] });
    expect(str(body[2], 'input_type')).toBe('text');
  });

  it('keeps subscription and customer fields apart: the same name may be used by both', () => {
    const s = site();
    s.ok('POST', '/subscriptions/metafields.json', { metafields: { name: 'Color' } });
    s.ok('POST', '/customers/metafields.json', { metafields: { name: 'Color' } });
    expect(num(s.ok('GET', '/customers/metafields.json'), 'total_count')).toBe(1);
  });

  it.each([
    ['a taken name', [{ name: 'Color' }], 'Name: "Color" has already been taken.'],
    [
      'a name twice in one request',
      [{ name: 'Size' }, { name: 'Size' }],
      'Name: "Size" has already been taken.',
    ],
    ['a radio field without choices', [{ name: 'r', input_type: 'radio', enum: [''] }], 'enum'],
    ['a blank name', [{ name: '  ' }], 'cannot be blank'],
    ['an unknown input type', [{ name: 'x', input_type: 'checkbox' }], 'input_type'],
  ])('refuses %s with a 422 {error} and changes nothing', (_what, metafields, message) => {
    const s = site();
    s.ok('POST', '/subscriptions/metafields.json', { metafields: { name: 'Color' } });
    const body = s.fail('POST', '/subscriptions/metafields.json', { metafields }, 422);
    expect(str(body, 'error')).toContain(message);
  });

  it('refuses the 101st field of a resource type', () => {
    const s = site();
    const metafields = Array.from({ length: 100 }, (_, i) => ({ name: `f${i}` }));
    s.ok('POST', '/subscriptions/metafields.json', { metafields });
    const body = s.fail('POST', '/subscriptions/metafields.json', { metafields: { name: 'one more' } }, 422);
    expect(str(body, 'error')).toContain('at most 100');
    s.ok('POST', '/customers/metafields.json', { metafields: { name: 'one more' } });
  });

  it('answers 404 for a resource type without custom fields', () => {
    const s = site();
    expect(s.request('GET', '/invoices/metafields.json').status).toBe(404);
    expect(s.request('GET', '/products/metafields.json').status).toBe(404);
  });
});

describe('listing metafields', () => {
  const withFields = () => {
    const s = site();
    const metafields = ['a', 'b', 'c', 'd', 'e'].map((name) => ({ name }));
    s.ok('POST', '/subscriptions/metafields.json', { metafields });
    return s;
  };
  const names = (body: unknown) => arr(body, 'metafields').map((field) => str(field, 'name'));

  it('pages in id order, newest first with direction=desc', () => {
    const s = withFields();
    const page = s.ok('GET', '/subscriptions/metafields.json?page=2&per_page=2');
    expect(page).toMatchObject({ total_count: 5, current_page: 2, total_pages: 3, per_page: 2 });
    expect(names(page)).toEqual(['c', 'd']);
    expect(names(s.ok('GET', '/subscriptions/metafields.json?direction=desc&per_page=2'))).toEqual([
      'e',
      'd',
    ]);
  });

  it('filters by name', () => {
    const s = withFields();
    expect(names(s.ok('GET', '/subscriptions/metafields.json?name=c'))).toEqual(['c']);
    expect(s.ok('GET', '/subscriptions/metafields.json?name=zz')).toMatchObject({
      total_count: 0,
      total_pages: 0,
      metafields: [],
    });
  });

  it('refuses an unknown direction', () => {
    const s = withFields();
    expect(
      str(s.fail('GET', '/subscriptions/metafields.json?direction=up', undefined, 422), 'error'),
    ).toContain('direction');
  });
});

describe('updating metafields', () => {
  it('renames a field by current_name and the values follow it', () => {
    const s = site();
    const customer = s.customer();
    s.ok('POST', `/customers/${customer}/metadata.json`, { metadata: [{ name: 'Size', value: 'L' }] });
    const body = s.ok('PUT', '/customers/metafields.json', {
      metafields: { current_name: 'Size', name: 'Shirt size' },
    });
    expect(arr(body).map((field) => [str(field, 'name'), num(field, 'data_count')])).toEqual([
      ['Shirt size', 1],
    ]);
    const values = arr(s.ok('GET', `/customers/${customer}/metadata.json`), 'metadata');
    expect(values.map((value) => str(value, 'name'))).toEqual(['Shirt size']);
    expect(s.ok('GET', '/customers/metafields.json?name=Size')).toMatchObject({ total_count: 0 });
  });

  it('changes the input type and choices of a field named by name; a scope sent replaces the whole scope', () => {
    const s = site();
    s.ok('POST', '/subscriptions/metafields.json', {
      metafields: { name: 'tier', scope: { csv: '1', portal: '1' } },
    });
    const body = s.ok('PUT', '/subscriptions/metafields.json', {
      metafields: [{ name: 'tier', input_type: 'dropdown', enum: ['a', 'b'], scope: { invoices: 1 } }],
    });
    expect(get(body, 0)).toMatchObject({
      input_type: 'dropdown',
      enum: ['a', 'b'],
      scope: { ...hidden, invoices: '1' },
    });
  });

  it('refuses an unknown field (404), a field not named, a taken new name and a dropdown without choices (422)', () => {
    const s = site();
    s.ok('POST', '/subscriptions/metafields.json', { metafields: [{ name: 'a' }, { name: 'b' }] });
    s.fail('PUT', '/subscriptions/metafields.json', { metafields: { name: 'zz' } }, 404);
    expect(s.fail('PUT', '/subscriptions/metafields.json', { metafields: { enum: ['x'] } }, 422)).toEqual({
      error: 'name: is required',
    });
    s.fail('PUT', '/subscriptions/metafields.json', { metafields: { current_name: 'a', name: 'b' } }, 422);
    s.fail(
      'PUT',
      '/subscriptions/metafields.json',
      { metafields: { name: 'a', input_type: 'dropdown' } },
      422,
    );
  });
});

describe('deleting metafields', () => {
  it('deletes the field and every value held in it, recording each removal', () => {
    const s = site();
    const first = s.customer();
    const second = s.customer();
    for (const id of [first, second])
      s.ok('POST', `/customers/${id}/metadata.json`, {
        metadata: [
          { name: 'Size', value: `v${id}` },
          { name: 'Keep', value: 'k' },
        ],
      });
    const called = s.request('DELETE', '/customers/metafields.json?name=Size');
    expect(called.status).toBe(200);
    expect(
      called.events.map((event) => [event.customer_id, get(event.event_specific_data, 'old_value')]),
    ).toEqual([
      [first, `v${first}`],
      [second, `v${second}`],
    ]);
    const values = arr(s.ok('GET', `/customers/${first}/metadata.json`), 'metadata');
    expect(values.map((value) => str(value, 'name'))).toEqual(['Keep']);
    expect(num(s.ok('GET', '/customers/metadata.json?with_deleted=true'), 'total_count')).toBe(2);
    s.ok('POST', '/customers/metafields.json', { metafields: { name: 'Size' } });
    expect(checkState(s.state)).toEqual([]);
  });

  it('answers 404 for an unknown or missing name', () => {
    const s = site();
    s.fail('DELETE', '/subscriptions/metafields.json?name=nope', undefined, 404);
    s.fail('DELETE', '/subscriptions/metafields.json', undefined, 404);
  });
});
