/** Subscription groups through handle(): add by target, remove, create, read, list, update, delete, lookup. */
import { describe, expect, it } from 'vitest';
import { arr, get, num, type Site, site, str } from '../../helpers/api.js';

/** A customer (optionally a child of `parent`) with a card and one subscription. */
function member(
  s: Site,
  product: number,
  parent?: number,
): { customer: number; profile: number; id: number } {
  const customer = s.customer(parent === undefined ? {} : { parent_id: parent });
  const profile = s.card(customer);
  const body = s.subscribe({ product_id: product, customer_id: customer, payment_profile_id: profile });
  return { customer, profile, id: num(body, 'subscription', 'id') };
}

const join = (s: Site, id: number, target: Record<string, unknown>) =>
  s.ok('POST', `/subscriptions/${id}/group.json`, { group: { target } }, 200);

const lookup = (s: Site, id: number) => s.ok('GET', `/subscription_groups/lookup.json?subscription_id=${id}`);

function family() {
  const s = site();
  const product = s.product();
  const root = member(s, product);
  const child = member(s, product, root.customer);
  const grandchild = member(s, product, child.customer);
  const stranger = member(s, product);
  return { s, product, root, child, grandchild, stranger };
}

describe('add a subscription to a group (POST /subscriptions/{id}/group.json)', () => {
  it('self creates a group paid by the subscribing customer, with the subscription as primary', () => {
    const { s, root } = family();
    const body = join(s, root.id, { type: 'self' });
    expect(get(body, 'subscription_group')).toMatchObject({
      customer_id: root.customer,
      payment_profile: { id: root.profile, masked_card_number: 'XXXX-XXXX-XXXX-1111' },
      payment_collection_method: 'automatic',
      subscription_ids: [root.id],
    });
    expect(get(lookup(s, root.id), 'primary_subscription_id')).toBe(root.id);
  });

  it('parent and eldest make the parent or the root customer the payer; later members join its group', () => {
    const { s, root, child, grandchild } = family();
    expect(get(join(s, grandchild.id, { type: 'parent' }), 'subscription_group', 'customer_id')).toBe(
      child.customer,
    );
    expect(get(join(s, child.id, { type: 'eldest' }), 'subscription_group', 'customer_id')).toBe(
      root.customer,
    );
    const joined = join(s, root.id, { type: 'customer', id: root.customer });
    expect(get(joined, 'subscription_group', 'subscription_ids')).toEqual([child.id, root.id]);
  });

  it('a subscription target already in a group makes the subscription join that group', () => {
    const { s, root, child } = family();
    join(s, root.id, { type: 'self' });
    const body = join(s, child.id, { type: 'subscription', id: root.id });
    expect(get(body, 'subscription_group', 'subscription_ids')).toEqual([root.id, child.id]);
    expect(get(lookup(s, child.id), 'uid')).toBe(get(lookup(s, root.id), 'uid'));
  });

  it('refuses another hierarchy, a subscription already grouped, and targets without id or parent', () => {
    const { s, root, child, stranger } = family();
    s.fail(
      'POST',
      `/subscriptions/${stranger.id}/group.json`,
      { group: { target: { type: 'customer', id: root.customer } } },
      422,
    );
    s.fail('POST', `/subscriptions/${root.id}/group.json`, { group: { target: { type: 'parent' } } }, 422);
    s.fail('POST', `/subscriptions/${root.id}/group.json`, { group: { target: { type: 'customer' } } }, 422);
    s.fail(
      'POST',
      `/subscriptions/${root.id}/group.json`,
      { group: { target: { type: 'subscription' } } },
      422,
    );
    s.fail('POST', `/subscriptions/${root.id}/group.json`, { group: { target: { type: 'nobody' } } }, 422);
    s.fail('POST', '/subscriptions/999/group.json', { group: { target: { type: 'self' } } }, 404);
    join(s, child.id, { type: 'self' });
    s.fail('POST', `/subscriptions/${child.id}/group.json`, { group: { target: { type: 'eldest' } } }, 422);
  });
});

describe('remove a subscription from its group (DELETE /subscriptions/{id}/group.json)', () => {
  it('removes a member (204); a subscription in no group is a 404; the primary leaves only last', () => {
    const { s, root, child } = family();
    join(s, root.id, { type: 'self' });
    join(s, child.id, { type: 'subscription', id: root.id });
    s.fail('DELETE', `/subscriptions/${root.id}/group.json`, undefined, 422);
    s.ok('DELETE', `/subscriptions/${child.id}/group.json`, undefined, 204);
    s.fail('DELETE', `/subscriptions/${child.id}/group.json`, undefined, 404);
    s.fail('GET', `/subscription_groups/lookup.json?subscription_id=${child.id}`, undefined, 404);
    s.ok('DELETE', `/subscriptions/${root.id}/group.json`, undefined, 204);
    expect(arr(s.ok('GET', '/subscription_groups.json'), 'subscription_groups')).toEqual([]);
  });
});

describe('account balances', () => {
  it('are the sums over the members of prepayments, service credits and open invoices due', () => {
    const { s, product, root, child } = family();
    const billed = num(
      s.subscribe({
        product_id: product,
        customer_id: child.customer,
        payment_collection_method: 'remittance',
      }),
      'subscription',
      'id',
    );
    s.ok('POST', `/subscriptions/${root.id}/prepayments.json`, {
      prepayment: { amount: 12.5, memo: 'p', method: 'cash' },
    });
    s.ok('POST', `/subscriptions/${child.id}/prepayments.json`, {
      prepayment: { amount: 1, memo: 'p', method: 'cash' },
    });
    s.ok('POST', `/subscriptions/${child.id}/service_credits.json`, {
      service_credit: { amount: 3, memo: 'c' },
    });
    s.ok('POST', '/subscription_groups.json', {
      subscription_group: { subscription_id: root.id, member_ids: [child.id, billed] },
    });
    expect(get(lookup(s, billed), 'account_balances')).toEqual({
      prepayments: { balance_in_cents: 1350 },
      service_credits: { balance_in_cents: 300 },
      open_invoices: { balance_in_cents: 1000 },
      pending_discounts: { balance_in_cents: 0 },
    });
  });
});

describe('the /subscription_groups resource', () => {
  it('creates, reads (full shape), lists and deletes a group', () => {
    const { s, root, child } = family();
    const created = s.ok('POST', '/subscription_groups.json', {
      subscription_group: { subscription_id: root.id, member_ids: [child.id, child.id] },
    });
    expect(get(created, 'subscription_group', 'subscription_ids')).toEqual([root.id, child.id]);
    const uid = str(lookup(s, child.id), 'uid');
    const full = s.ok('GET', `/subscription_groups/${uid}.json`);
    expect(full).toMatchObject({
      uid,
      scheme: 1,
      customer_id: root.customer,
      payment_profile_id: root.profile,
      subscription_ids: [root.id, child.id],
      primary_subscription_id: root.id,
      state: 'active',
      cancel_at_end_of_period: false,
      customer: { first_name: 'Ada' },
      account_balances: {
        prepayments: { balance_in_cents: 0 },
        service_credits: { balance_in_cents: 0 },
        open_invoices: { balance_in_cents: 0 },
        pending_discounts: { balance_in_cents: 0 },
      },
    });
    expect(typeof get(full, 'next_assessment_at')).toBe('string');
    const list = s.ok('GET', '/subscription_groups.json?include[]=account_balances');
    expect(arr(list, 'subscription_groups')).toHaveLength(1);
    expect(get(list, 'subscription_groups', 0, 'account_balances', 'prepayments')).toEqual({
      balance_in_cents: 0,
    });
    expect(get(list, 'meta', 'total_count')).toBe(1);
    expect(s.ok('DELETE', `/subscription_groups/${uid}.json`)).toEqual({ uid, deleted: true });
    s.fail('GET', `/subscription_groups/${uid}.json`, undefined, 404);
    s.fail('DELETE', `/subscription_groups/${uid}.json`, undefined, 404);
    // Deleting frees the members: they can be grouped again.
    join(s, child.id, { type: 'self' });
  });

  it('refuses create with an unknown primary, a grouped or foreign member, or a foreign profile', () => {
    const { s, root, child, stranger } = family();
    const create = (group: Record<string, unknown>) =>
      s.fail('POST', '/subscription_groups.json', { subscription_group: group }, 422);
    expect(get(create({ subscription_id: 999 }), 'errors', 'subscription_group')).toHaveLength(1);
    expect(
      get(create({ subscription_id: root.id, member_ids: [stranger.id, 998] }), 'errors', 'members'),
    ).toHaveLength(2);
    create({ subscription_id: root.id, payment_profile_id: stranger.profile });
    join(s, child.id, { type: 'self' });
    create({ subscription_id: root.id, member_ids: [child.id] });
    create({ subscription_id: child.id });
  });

  it('updates members: adds and removes; the primary must be listed; an empty array removes all', () => {
    const { s, root, child, grandchild, stranger } = family();
    s.ok('POST', '/subscription_groups.json', {
      subscription_group: { subscription_id: root.id, member_ids: [child.id] },
    });
    const uid = str(lookup(s, root.id), 'uid');
    const put = (_: number[]) => `/subscription_groups/${uid}.json`;
    const updated = s.ok('PUT', put([]), { subscription_group: { member_ids: [root.id, grandchild.id] } });
    expect(get(updated, 'subscription_group', 'subscription_ids')).toEqual([root.id, grandchild.id]);
    s.fail('GET', `/subscription_groups/lookup.json?subscription_id=${child.id}`, undefined, 404);
    const noPrimary = s.fail('PUT', put([]), { subscription_group: { member_ids: [grandchild.id] } }, 422);
    expect(arr(noPrimary, 'errors', 'members')[0]).toMatch(/primary/);
    const foreign = s.fail(
      'PUT',
      put([]),
      { subscription_group: { member_ids: [root.id, stranger.id] } },
      422,
    );
    expect(arr(foreign, 'errors', 'members')).toHaveLength(1);
    s.fail('PUT', put([]), { subscription_group: { member_ids: 'x' } }, 422);
    // SPEC 4.6: "an empty array removes all"; the official docs: "To clean up members, just leave the
    // array empty". With no member left the group is gone, as when its last member leaves.
    const emptied = s.ok('PUT', put([]), { subscription_group: { member_ids: [] } });
    expect(get(emptied, 'subscription_group', 'subscription_ids')).toEqual([]);
    s.fail('GET', `/subscription_groups/lookup.json?subscription_id=${root.id}`, undefined, 404);
    s.fail('GET', `/subscription_groups/lookup.json?subscription_id=${grandchild.id}`, undefined, 404);
    s.fail('GET', put([]), undefined, 404);
    expect(num(s.ok('GET', `/subscriptions/${root.id}.json`), 'subscription', 'id')).toBe(root.id);
    s.fail(
      'PUT',
      '/subscription_groups/grp_0000000000099.json',
      { subscription_group: { member_ids: [] } },
      404,
    );
  });

  it('lookup: 404 for a subscription in no group or unknown, 422 without subscription_id', () => {
    const { s, root } = family();
    s.fail('GET', `/subscription_groups/lookup.json?subscription_id=${root.id}`, undefined, 404);
    s.fail('GET', '/subscription_groups/lookup.json?subscription_id=999', undefined, 404);
    s.fail('GET', '/subscription_groups/lookup.json', undefined, 422);
  });

  it("changes the default payment profile only to one of the group's customer", () => {
    const { s, root, child, stranger } = family();
    join(s, root.id, { type: 'self' });
    const uid = str(lookup(s, root.id), 'uid');
    const second = s.card(root.customer, 4);
    const path = (profile: number) =>
      `/subscription_groups/${uid}/payment_profiles/${profile}/change_payment_profile.json`;
    expect(get(s.ok('POST', path(second), undefined, 200), 'payment_profile', 'id')).toBe(second);
    expect(get(lookup(s, root.id), 'payment_profile_id')).toBe(second);
    s.fail('POST', path(stranger.profile), undefined, 422);
    s.fail('POST', path(child.profile), undefined, 422);
    s.fail('POST', path(999), undefined, 404);
  });

  it('a customer paying several groups: a new member joins the oldest one left', () => {
    const { s, product, root } = family();
    const more = () =>
      num(
        s.subscribe({ product_id: product, customer_id: root.customer, payment_profile_id: root.profile }),
        'subscription',
        'id',
      );
    const second = more();
    s.ok('POST', '/subscription_groups.json', { subscription_group: { subscription_id: root.id } });
    s.ok('POST', '/subscription_groups.json', { subscription_group: { subscription_id: second } });
    const [older, newer] = [str(lookup(s, root.id), 'uid'), str(lookup(s, second), 'uid')];
    const third = more();
    expect(get(join(s, third, { type: 'self' }), 'subscription_group', 'subscription_ids')).toEqual([
      root.id,
      third,
    ]);
    s.ok('DELETE', `/subscription_groups/${older}.json`);
    const fourth = more();
    join(s, fourth, { type: 'customer', id: root.customer });
    expect(str(lookup(s, fourth), 'uid')).toBe(newer);
  });
});
