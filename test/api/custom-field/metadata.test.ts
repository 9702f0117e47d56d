/**
 * Custom field values of subscriptions and customers through the public API: set (creating unknown
 * fields as text fields), list, change, move and remove, each change recorded as a
 * `custom_field_value_change`; radio and dropdown fields take only their choices; refusals change
 * nothing; a deleted customer or purged subscription takes its values with it.
 */
import { describe, expect, it } from 'vitest';
import { checkState } from '../../../src/testing/index.js';
import { arr, get, num, site, str } from '../../helpers/api.js';

const names = (body: unknown) => arr(body, 'metadata').map((row) => [str(row, 'name'), get(row, 'value')]);

describe('setting values', () => {
  it('sets values on a subscription, creating unknown fields as text fields', () => {
    const s = site();
    const { id, customer } = s.subscribed(s.product());
    const called = s.request('POST', `/subscriptions/${id}/metadata.json`, {
      metadata: [
        { name: 'Color', value: 'red' },
        { name: 'Seats', value: 12 },
      ],
    });
    expect(called.status).toBe(201);
    expect(called.body).toEqual([
      { id: 1, value: 'red', resource_id: id, name: 'Color', deleted_at: null, metafield_id: 1 },
      { id: 2, value: '12', resource_id: id, name: 'Seats', deleted_at: null, metafield_id: 2 },
    ]);
    expect(called.events.map((event) => [event.key, event.subscription_id, event.customer_id])).toEqual([
      ['custom_field_value_change', id, customer],
      ['custom_field_value_change', id, customer],
    ]);
    expect(called.events[0]?.event_specific_data).toEqual({
      event_type: 'created',
      metafield_name: 'Color',
      metafield_id: 1,
      old_value: null,
      new_value: 'red',
      resource_type: 'Subscription',
      resource_id: id,
    });
    const fields = arr(s.ok('GET', '/subscriptions/metafields.json'), 'metafields');
    expect(fields.map((field) => [str(field, 'input_type'), num(field, 'data_count')])).toEqual([
      ['text', 1],
      ['text', 1],
    ]);
  });

  it('accepts a single object, changes a held value and records nothing for an unchanged one', () => {
    const s = site();
    const customer = s.customer();
    const path = `/customers/${customer}/metadata.json`;
    s.ok('POST', path, { metadata: { name: 'Size', value: 'M' } });
    const changed = s.request('POST', path, { metadata: { name: 'Size', value: 'L' } });
    expect(changed.events.map((event) => event.event_specific_data)).toEqual([
      {
        event_type: 'updated',
        metafield_name: 'Size',
        metafield_id: 1,
        old_value: 'M',
        new_value: 'L',
        resource_type: 'Customer',
        resource_id: customer,
      },
    ]);
    expect(changed.events[0]?.subscription_id).toBeNull();
    expect(s.request('POST', path, { metadata: { name: 'Size', value: 'L' } }).events).toEqual([]);
    expect(num(s.ok('GET', '/customers/metafields.json'), 'metafields', 0, 'data_count')).toBe(1);
    expect(names(s.ok('GET', path))).toEqual([['Size', 'L']]);
  });

  it('lets a radio or dropdown field take only its choices', () => {
    const s = site();
    const customer = s.customer();
    s.ok('POST', '/customers/metafields.json', {
      metafields: { name: 'tier', input_type: 'radio', enum: ['gold', 'silver'] },
    });
    const path = `/customers/${customer}/metadata.json`;
    s.ok('POST', path, { metadata: [{ name: 'tier', value: 'gold' }] });
    const body = s.fail('POST', path, { metadata: [{ name: 'tier', value: 'bronze' }] }, 422);
    expect(str(body, 'error')).toContain('"bronze" is not one of');
  });

  it.each([
    ['a value over 2 kB', [{ name: 'a', value: 'é'.repeat(1025) }], 'larger than 2048 bytes'],
    ['a missing value', [{ name: 'a' }], 'metadata.1.value: is required'],
    ['a blank name', [{ name: ' ', value: 'x' }], 'cannot be blank'],
    [
      'more than 100 values',
      Array.from({ length: 101 }, (_, i) => ({ name: `n${i}`, value: 'x' })),
      'metadata',
    ],
  ])('refuses %s whole, with a 422 {error}', (_what, metadata, message) => {
    const s = site();
    const customer = s.customer();
    const body = s.fail(
      'POST',
      `/customers/${customer}/metadata.json`,
      { metadata: [{ name: 'ok', value: '1' }, ...metadata] },
      422,
    );
    expect(str(body, 'error')).toContain(message);
  });

  it('refuses a value that would make the 101st field', () => {
    const s = site();
    const customer = s.customer();
    s.ok('POST', '/customers/metafields.json', {
      metafields: Array.from({ length: 100 }, (_, i) => ({ name: `f${i}` })),
    });
    s.fail('POST', `/customers/${customer}/metadata.json`, { metadata: { name: 'new', value: 'x' } }, 422);
    s.ok('POST', `/customers/${customer}/metadata.json`, { metadata: { name: 'f5', value: 'x' } });
  });

  it('answers 404 for an unknown resource', () => {
    const s = site();
    s.fail('POST', '/subscriptions/99/metadata.json', { metadata: { name: 'a', value: 'b' } }, 404);
    s.fail('GET', '/customers/99/metadata.json', undefined, 404);
    s.fail('GET', '/customers/abc/metadata.json', undefined, 404);
  });
});

describe('listing the values of a resource', () => {
  it('pages the values that are held, leaving removed ones out', () => {
    const s = site();
    const customer = s.customer();
    const path = `/customers/${customer}/metadata.json`;
    s.ok('POST', path, { metadata: ['a', 'b', 'c', 'd'].map((name) => ({ name, value: name })) });
    s.ok('DELETE', `${path}?name=b`);
    const page = s.ok('GET', `${path}?page=2&per_page=2`);
    expect(page).toMatchObject({ total_count: 3, current_page: 2, total_pages: 2, per_page: 2 });
    expect(names(page)).toEqual([['d', 'd']]);
    expect(names(s.ok('GET', `/customers/${s.customer()}/metadata.json`))).toEqual([]);
  });
});

describe('updating values', () => {
  it('changes a value by name, creating the field when needed', () => {
    const s = site();
    const customer = s.customer();
    const path = `/customers/${customer}/metadata.json`;
    s.ok('POST', path, { metadata: { name: 'Size', value: 'M' } });
    expect(s.ok('PUT', path, { metadata: { name: 'Size', value: 'XL' } })).toMatchObject([
      { name: 'Size', value: 'XL' },
    ]);
    expect(s.ok('PUT', path, { metadata: { name: 'Fresh', value: 'yes' } })).toMatchObject([
      { name: 'Fresh', value: 'yes', metafield_id: 2 },
    ]);
  });

  it('moves a value from current_name to name, keeping it when no value is sent', () => {
    const s = site();
    const customer = s.customer();
    const path = `/customers/${customer}/metadata.json`;
    s.ok('POST', path, { metadata: { name: 'Old', value: 'kept' } });
    const called = s.request('PUT', path, { metadata: { current_name: 'Old', name: 'New' } });
    expect(called.status).toBe(200);
    expect(called.events.map((event) => get(event.event_specific_data, 'event_type'))).toEqual([
      'deleted',
      'created',
    ]);
    expect(names(s.ok('GET', path))).toEqual([['New', 'kept']]);
    expect(checkState(s.state)).toEqual([]);
  });

  it('refuses a missing value (422) and a current_name the resource holds no value in (404)', () => {
    const s = site();
    const customer = s.customer();
    const path = `/customers/${customer}/metadata.json`;
    expect(str(s.fail('PUT', path, { metadata: { name: 'Size' } }, 422), 'error')).toBe('value: is required');
    s.fail('PUT', path, { metadata: { current_name: 'Nope', name: 'Size', value: 'x' } }, 404);
  });
});

describe('removing values', () => {
  it('removes by name or by names[], recording each removal, and 404 when none is held', () => {
    const s = site();
    const { id } = s.subscribed(s.product());
    const path = `/subscriptions/${id}/metadata.json`;
    s.ok('POST', path, { metadata: ['a', 'b', 'c'].map((name) => ({ name, value: `${name}!` })) });
    const one = s.request('DELETE', `${path}?name=a`);
    expect([one.status, one.body]).toEqual([200, true]);
    expect(one.events.map((event) => event.event_specific_data)).toMatchObject([
      { event_type: 'deleted', metafield_name: 'a', old_value: 'a!', new_value: null },
    ]);
    const two = s.request('DELETE', `${path}?names[]=b&names[]=c&names[]=zz`);
    expect(two.events.map((event) => get(event.event_specific_data, 'metafield_name'))).toEqual(['b', 'c']);
    expect(names(s.ok('GET', path))).toEqual([]);
    s.fail('DELETE', `${path}?name=a`, undefined, 404);
    s.fail('DELETE', path, undefined, 404);
    const fields = arr(s.ok('GET', '/subscriptions/metafields.json'), 'metafields');
    expect(fields.map((field) => num(field, 'data_count'))).toEqual([0, 0, 0]);
    expect(checkState(s.state)).toEqual([]);
  });

  it('sets a removed value again on the same row', () => {
    const s = site();
    const customer = s.customer();
    const path = `/customers/${customer}/metadata.json`;
    const first = num(s.ok('POST', path, { metadata: { name: 'a', value: '1' } }), 0, 'id');
    s.ok('DELETE', `${path}?name=a`);
    const again = s.request('POST', path, { metadata: { name: 'a', value: '2' } });
    expect(num(again.body, 0, 'id')).toBe(first);
    expect(again.events.map((event) => get(event.event_specific_data, 'old_value'))).toEqual([null]);
  });
});

describe('resources that go take their values', () => {
  it('deleting a customer drops its values and their counts', () => {
    const s = site();
    const customer = s.customer();
    const other = s.customer();
    s.ok('POST', `/customers/${customer}/metadata.json`, { metadata: { name: 'a', value: '1' } });
    s.ok('POST', `/customers/${other}/metadata.json`, { metadata: { name: 'a', value: '2' } });
    s.request('DELETE', `/customers/${customer}.json`);
    expect(s.ok('GET', '/customers/metadata.json?with_deleted=true')).toMatchObject({ total_count: 1 });
    expect(num(s.ok('GET', '/customers/metafields.json'), 'metafields', 0, 'data_count')).toBe(1);
    expect(checkState(s.state)).toEqual([]);
  });

  it('purging a subscription (with its customer) drops the values of both', () => {
    const s = site();
    const product = s.product({ price_in_cents: 0 });
    const customer = s.customer();
    const id = num(
      s.subscribe({ product_id: product, customer_id: customer, payment_collection_method: 'remittance' }),
      'subscription',
      'id',
    );
    s.ok('POST', `/subscriptions/${id}/metadata.json`, { metadata: { name: 'a', value: '1' } });
    s.ok('POST', `/customers/${customer}/metadata.json`, { metadata: { name: 'b', value: '2' } });
    s.ok('POST', `/subscriptions/${id}/purge.json?ack=${customer}&cascade[]=customer`, undefined, 200);
    expect(s.ok('GET', '/subscriptions/metadata.json?with_deleted=true')).toMatchObject({ total_count: 0 });
    expect(s.ok('GET', '/customers/metadata.json?with_deleted=true')).toMatchObject({ total_count: 0 });
    expect(num(s.ok('GET', '/subscriptions/metafields.json'), 'metafields', 0, 'data_count')).toBe(0);
    expect(checkState(s.state)).toEqual([]);
  });
});
