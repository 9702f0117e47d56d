import { describe, expect, it } from 'vitest';
import { arr, errorsOf, get, num, site } from '../../helpers/api.js';

const ada = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  reference: 'ada-1',
  organization: 'Engines',
};

describe('customers', () => {
  it('creates a customer (201) and records customer_create', () => {
    const s = site();
    const created = s.request('POST', '/customers.json', { customer: ada });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      customer: {
        id: 1,
        first_name: 'Ada',
        last_name: 'Lovelace',
        email: 'ada@example.com',
        reference: 'ada-1',
        parent_id: null,
      },
    });
    expect(created.events.map((event) => event.key)).toEqual(['customer_create']);
  });

  it('refuses a blank first_name, last_name or email and a malformed email (422)', () => {
    const s = site();
    for (const patch of [
      { first_name: '' },
      { first_name: '   ' },
      { last_name: '' },
      { email: '' },
      { email: 'not-an-email' },
    ]) {
      s.fail('POST', '/customers.json', { customer: { ...ada, ...patch } }, 422);
    }
    expect(
      errorsOf(s.fail('POST', '/customers.json', { customer: { ...ada, first_name: '' } }, 422)),
    ).toMatch(/First name/);
    s.fail('POST', '/customers.json', { customer: { ...ada, first_name: 42 } }, 422);
    s.fail('POST', '/customers.json', {}, 422);
  });

  it('reads a customer by id; 404 for an unknown one', () => {
    const s = site();
    const id = s.customer(ada);
    expect(get(s.ok('GET', `/customers/${id}.json`), 'customer', 'email')).toBe('ada@example.com');
    s.fail('GET', '/customers/99.json', undefined, 404);
  });

  it('looks a customer up by reference; 404 for an unknown or missing reference', () => {
    const s = site();
    s.customer();
    const id = s.customer(ada);
    expect(num(s.ok('GET', '/customers/lookup.json?reference=ada-1'), 'customer', 'id')).toBe(id);
    s.fail('GET', '/customers/lookup.json?reference=nobody', undefined, 404);
    s.fail('GET', '/customers/lookup.json', undefined, 404);
  });

  it('lists customers with paging, a q search and direction', () => {
    const s = site();
    const a = s.customer({ first_name: 'Grace' });
    const b = s.customer({ first_name: 'Alan' });
    const c = s.customer({ first_name: 'Grace', last_name: 'Hopper' });
    const ids = (path: string) => arr(s.ok('GET', path)).map((item) => num(item, 'customer', 'id'));
    expect(ids('/customers.json')).toEqual([a, b, c]);
    expect(ids('/customers.json?direction=desc')).toEqual([c, b, a]);
    expect(ids('/customers.json?q=grace')).toEqual([a, c]);
    expect(ids('/customers.json?per_page=2&page=2')).toEqual([c]);
    s.fail('GET', '/customers.json?page=0', undefined, 422);
    s.fail('GET', '/customers.json?per_page=abc', undefined, 422);
  });

  it('updates plain fields, keeps the others, records customer_update', () => {
    const s = site();
    const id = s.customer(ada);
    const updated = s.request('PUT', `/customers/${id}.json`, {
      customer: { city: 'London', organization: null },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      customer: { city: 'London', organization: null, first_name: 'Ada', reference: 'ada-1' },
    });
    expect(updated.events.map((event) => event.key)).toEqual(['customer_update']);
    s.fail('PUT', `/customers/${id}.json`, { customer: { email: ' ' } }, 422);
    s.fail('PUT', `/customers/${id}.json`, { customer: { first_name: '' } }, 422);
    s.fail('PUT', '/customers/99.json', { customer: { city: 'x' } }, 404);
  });

  it('keeps references unique on create and update, and frees a reference when it is cleared', () => {
    const s = site();
    const first = s.customer(ada);
    expect(
      errorsOf(s.fail('POST', '/customers.json', { customer: { ...ada, email: 'b@example.com' } }, 422)),
    ).toMatch(/Reference/);
    const second = s.customer({ reference: 'other' });
    s.fail('PUT', `/customers/${second}.json`, { customer: { reference: 'ada-1' } }, 422);
    s.ok('PUT', `/customers/${first}.json`, { customer: { reference: ada.reference } });
    s.ok('PUT', `/customers/${first}.json`, { customer: { reference: '' } });
    s.fail('GET', '/customers/lookup.json?reference=ada-1', undefined, 404);
    s.ok('PUT', `/customers/${second}.json`, { customer: { reference: 'ada-1' } });
    expect(num(s.ok('GET', '/customers/lookup.json?reference=ada-1'), 'customer', 'id')).toBe(second);
  });

  it('accepts a parent and refuses a missing parent and any parent_id cycle', () => {
    const s = site();
    const root = s.customer();
    const child = s.customer({ parent_id: root });
    const grandchild = s.customer({ parent_id: child });
    expect(get(s.ok('GET', `/customers/${grandchild}.json`), 'customer', 'parent_id')).toBe(child);
    s.fail('POST', '/customers.json', { customer: { ...ada, parent_id: 99 } }, 422);
    s.fail('PUT', `/customers/${root}.json`, { customer: { parent_id: root } }, 422);
    s.fail('PUT', `/customers/${root}.json`, { customer: { parent_id: child } }, 422);
    expect(
      errorsOf(s.fail('PUT', `/customers/${root}.json`, { customer: { parent_id: grandchild } }, 422)),
    ).toMatch(/ancestor/);
    s.ok('PUT', `/customers/${grandchild}.json`, { customer: { parent_id: root } });
    s.ok('PUT', `/customers/${grandchild}.json`, { customer: { parent_id: null } });
  });

  it('deletes a customer (204, no body) and then answers 404', () => {
    const s = site();
    const id = s.customer();
    const deleted = s.request('DELETE', `/customers/${id}.json`);
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBeUndefined();
    expect(deleted.events.map((event) => event.key)).toEqual(['customer_delete']);
    s.fail('GET', `/customers/${id}.json`, undefined, 404);
    s.fail('DELETE', `/customers/${id}.json`, undefined, 404);
    expect(s.customer()).toBe(id + 1);
  });

  it('refuses to delete a customer with subscriptions (422)', () => {
    const s = site();
    const { customer } = s.subscribed(s.product());
    s.fail('DELETE', `/customers/${customer}.json`, undefined, 422);
  });
});
