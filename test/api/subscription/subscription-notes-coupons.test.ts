/**
 * Notes on a subscription (create, list with sticky ones first, read, update, delete) and coupons added
 * to or removed from a live subscription: an added recurring coupon discounts the next renewal, stacking
 * follows the coupons' flags, and refusals change nothing.
 */
import { describe, expect, it } from 'vitest';
import { checkLedger } from '../../../src/testing/index.js';
import { arr, get, num, type Site, site, str } from '../../helpers/api.js';

const START = '2026-01-10T12:00:00Z';

function subscribedWithCoupons(s: Site) {
  const family = s.family();
  const product = s.product({ price_in_cents: 1000 }, family);
  const coupon = (code: string, extra: Record<string, unknown>) =>
    s.ok('POST', `/product_families/${family}/coupons.json`, {
      coupon: { name: code, code, percentage: '10', recurring: true, stackable: true, ...extra },
    });
  coupon('TEN', {});
  coupon('FIVE', { percentage: '5' });
  coupon('ALONE', { stackable: false });
  coupon('ONCE', { recurring: false });
  const { id } = s.subscribed(product);
  return { id };
}

describe('subscription notes', () => {
  it('creates, lists (sticky first), reads, updates and deletes notes', () => {
    const s = site({}, START);
    const { id } = subscribedWithCoupons(s);
    const base = `/subscriptions/${id}/notes`;
    const first = num(
      s.ok('POST', `${base}.json`, { note: { body: 'Called the customer', sticky: false } }),
      'note',
      'id',
    );
    const pinned = get(s.ok('POST', `${base}.json`, { note: { body: 'VIP', sticky: true } }), 'note');
    expect(num(pinned, 'subscription_id')).toBe(id);
    expect(get(pinned, 'sticky')).toBe(true);
    const listed = arr(s.ok('GET', `${base}.json`)).map((entry) => str(entry, 'note', 'body'));
    expect(listed).toEqual(['VIP', 'Called the customer']);
    expect(str(s.ok('GET', `${base}/${first}.json`), 'note', 'body')).toBe('Called the customer');
    const updated = s.ok('PUT', `${base}/${first}.json`, { note: { body: 'Called twice', sticky: true } });
    expect(str(updated, 'note', 'body')).toBe('Called twice');
    s.fail('POST', `${base}.json`, { note: { body: '  ' } }, 422);
    s.fail('GET', `${base}/999.json`, undefined, 404);
    s.fail('GET', `/subscriptions/999/notes.json`, undefined, 404);
    s.ok('DELETE', `${base}/${first}.json`);
    expect(arr(s.ok('GET', `${base}.json`))).toHaveLength(1);
    s.fail('DELETE', `${base}/${first}.json`, undefined, 404);
  });

  it('a note of another subscription is not found through this one', () => {
    const s = site({}, START);
    const { id } = subscribedWithCoupons(s);
    const other = s.subscribed(num(s.subscription(id), 'product', 'id')).id;
    const note = num(
      s.ok('POST', `/subscriptions/${id}/notes.json`, { note: { body: 'x', sticky: false } }),
      'note',
      'id',
    );
    s.fail('GET', `/subscriptions/${other}/notes/${note}.json`, undefined, 404);
  });
});

describe('coupons on a live subscription', () => {
  it('adds stackable recurring coupons, which discount the next renewal, and removes one', () => {
    const s = site({}, START);
    const { id } = subscribedWithCoupons(s);
    const added = s.ok('POST', `/subscriptions/${id}/add_coupon.json`, { codes: ['ten', 'FIVE'] }, 200);
    expect(get(added, 'subscription', 'coupon_codes')).toEqual(['TEN', 'FIVE']);
    const removed = s.request('DELETE', `/subscriptions/${id}/remove_coupon.json?coupon_code=five`);
    expect(removed.status).toBe(200);
    expect(removed.body).toBe('Coupon successfully removed');
    expect(get(s.subscription(id), 'coupon_codes')).toEqual(['TEN']);
    s.advance('2026-02-10T12:00:00Z');
    expect(s.invoices(id).map((invoice) => str(invoice, 'total_amount'))).toEqual(['10.00', '9.00']);
    expect(checkLedger(s.state)).toEqual([]);
  });

  it('refuses unknown, one-time, duplicate and unstackable coupons, in the official error shape', () => {
    const s = site({}, START);
    const { id } = subscribedWithCoupons(s);
    const path = `/subscriptions/${id}/add_coupon.json`;
    expect(arr(s.fail('POST', path, { codes: ['NOPE'] }, 422), 'errors', 'codes')).toHaveLength(1);
    s.fail('POST', path, { codes: ['ONCE'] }, 422);
    s.fail('POST', path, { codes: ['TEN', 'ALONE'] }, 422);
    s.fail('POST', path, { codes: ['TEN', 'TEN'] }, 422);
    s.fail('POST', path, {}, 422);
    const removal = s.fail(
      'DELETE',
      `/subscriptions/${id}/remove_coupon.json?coupon_code=TEN`,
      undefined,
      422,
    );
    expect(arr(removal, 'errors', 'subscription')).toHaveLength(1);
  });

  it('the deprecated code query parameter replaces the codes', () => {
    const s = site({}, START);
    const { id } = subscribedWithCoupons(s);
    s.ok('POST', `/subscriptions/${id}/add_coupon.json`, { codes: ['TEN', 'FIVE'] }, 200);
    const replaced = s.ok('POST', `/subscriptions/${id}/add_coupon.json?code=ALONE`, undefined, 200);
    expect(get(replaced, 'subscription', 'coupon_codes')).toEqual(['ALONE']);
  });
});
