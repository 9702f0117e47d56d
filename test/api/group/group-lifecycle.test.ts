/**
 * A subscription group's lifecycle: signing up with a group bills every member's first period on one
 * consolidated invoice, collected once (a declined card refuses the whole signup); cancel, delayed
 * cancel and its removal, reactivation. The books balance after each step.
 */
import { describe, expect, it } from 'vitest';
import { checkLedger, checkState } from '../../../src/testing/index.js';
import { arr, cardAttributes, get, num, type Site, site, str } from '../../helpers/api.js';

const START = '2026-01-10T12:00:00Z';

function catalog(s: Site) {
  const family = s.family();
  const gold = s.product({ price_in_cents: 4900 }, family);
  const silver = s.product({ price_in_cents: 2900 }, family);
  return { gold, silver };
}

function signup(s: Site, lastDigit: 1 | 2 = 1) {
  const { gold, silver } = catalog(s);
  return s.request('POST', '/subscription_groups/signup.json', {
    subscription_group: {
      payer_attributes: { first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com' },
      credit_card_attributes: cardAttributes(lastDigit),
      subscriptions: [
        { product_id: silver, reference: 'member-1' },
        { product_id: gold, primary: true },
      ],
    },
  });
}

describe('POST /subscription_groups/signup.json', () => {
  it('signs up the payer to every product as one group, billed on one consolidated invoice', () => {
    const s = site({}, START);
    const called = signup(s);
    expect(called.status).toBe(201);
    const body = called.body;
    const [primary, member] = arr(body, 'subscription_ids') as number[];
    expect(num(body, 'primary_subscription_id')).toBe(primary);
    expect(str(body, 'uid')).toMatch(/^grp_/);
    expect(arr(body, 'subscriptions').map((line) => get(line, 'reference'))).toEqual([null, 'member-1']);
    expect(called.events.map((event) => event.key)).toEqual([
      'customer_create',
      'subscription_added_to_group',
      'subscription_added_to_group',
      'invoice_issued',
      'payment_success',
      'signup_success',
      'signup_success',
      'subscription_group_signup_success',
    ]);
    const groupEvent = called.events.at(-1);
    expect(groupEvent?.subscription_id).toBe(primary);
    expect(get(groupEvent?.event_specific_data, 'subscription_group')).toMatchObject({
      payment_collection_method: 'automatic',
      subscriptions: [
        { product_id: num(s.subscription(primary ?? 0), 'product', 'id'), primary: true },
        {
          product_id: num(s.subscription(member ?? 0), 'product', 'id'),
          primary: false,
          reference: 'member-1',
        },
      ],
    });
    expect(num(groupEvent?.event_specific_data, 'customer', 'id')).toBe(groupEvent?.customer_id);
    expect(str(s.subscription(primary ?? 0), 'state')).toBe('active');
    expect(num(s.subscription(member ?? 0), 'total_revenue_in_cents')).toBe(2900);
    const parents = arr(s.ok('GET', '/invoices.json?per_page=200'), 'invoices').filter(
      (invoice) => get(invoice, 'consolidation_level') === 'parent',
    );
    expect(parents.map((invoice) => str(invoice, 'total_amount'))).toEqual(['78.00']);
    expect(checkState(s.state)).toEqual([]);
  });

  it('a declined card refuses the whole signup, and so does a bad product', () => {
    const s = site({}, START);
    const before = s.state;
    const declined = signup(s, 2);
    expect(declined.status).toBe(422);
    expect(arr(declined.body, 'errors', 'subscription_group')).toHaveLength(1);
    const refused = s.request('POST', '/subscription_groups/signup.json', {
      subscription_group: { payer_id: 999, subscriptions: [{ product_id: 1 }] },
    });
    expect(refused.status).toBe(422);
    expect(s.state.tables.subscriptions).toBe(before.tables.subscriptions);
  });
});

describe('group status', () => {
  const grouped = () => {
    const s = site({}, START);
    const body = signup(s).body;
    return { s, uid: str(body, 'uid'), ids: arr(body, 'subscription_ids') as number[] };
  };

  it('cancels every member now, and reactivates them with a new period', () => {
    const { s, uid, ids } = grouped();
    s.ok('POST', `/subscription_groups/${uid}/cancel.json`, {}, 200);
    for (const id of ids) expect(str(s.subscription(id), 'state')).toBe('canceled');
    s.fail('POST', `/subscription_groups/${uid}/cancel.json`, {}, 422);
    s.at('2026-03-01T00:00:00Z');
    const reactivated = s.ok('POST', `/subscription_groups/${uid}/reactivate.json`, { resume: false }, 200);
    expect(str(reactivated, 'state')).toBe('active');
    for (const id of ids) expect(str(s.subscription(id), 'state')).toBe('active');
    expect(checkLedger(s.state)).toEqual([]);
    s.fail('POST', `/subscription_groups/${uid}/reactivate.json`, {}, 422);
  });

  it('cancels every member at the end of its period, and takes it back', () => {
    const { s, uid, ids } = grouped();
    s.ok('POST', `/subscription_groups/${uid}/delayed_cancel.json`, undefined, 200);
    for (const id of ids) expect(get(s.subscription(id), 'cancel_at_end_of_period')).toBe(true);
    s.ok('DELETE', `/subscription_groups/${uid}/delayed_cancel.json`, undefined, 200);
    for (const id of ids) expect(get(s.subscription(id), 'cancel_at_end_of_period')).toBe(false);
    s.fail('DELETE', `/subscription_groups/${uid}/delayed_cancel.json`, undefined, 422);
    s.ok('POST', `/subscription_groups/${uid}/delayed_cancel.json`, undefined, 200);
    s.advance('2026-02-10T12:00:01Z');
    for (const id of ids) expect(str(s.subscription(id), 'state')).toBe('canceled');
    expect(checkState(s.state)).toEqual([]);
    s.fail('POST', '/subscription_groups/grp_nope/cancel.json', {}, 404);
  });
});
