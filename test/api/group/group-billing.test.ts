/**
 * Consolidated group billing through handle(): members renewing at one instant get pending child
 * invoices under one parent invoice that the group's payer pays with the group's default profile;
 * paying the parent pays the children; a failure puts the parent in the primary's dunning.
 */
import { describe, expect, it } from 'vitest';
import { checkState } from '../../../src/testing/index.js';
import { arr, errorsOf, get, num, type Site, site, str } from '../../helpers/api.js';

const amount = (value: unknown, ...path: string[]): number => Number(get(value, ...path));

/**
 * A payer subscribed with a good card (the primary), and a child customer in its hierarchy subscribed
 * at the same instant; both in one group paid by the payer. With `groupCard` 2 the group's default
 * payment profile is a second card of the payer that authorizes but never pays.
 */
function grouped(groupCard: 1 | 2 = 1) {
  const s = site();
  const product = s.product();
  const payer = s.subscribed(product);
  const childCustomer = s.customer({ parent_id: payer.customer });
  const childProfile = s.card(childCustomer);
  const member = num(
    s.subscribe({ product_id: product, customer_id: childCustomer, payment_profile_id: childProfile }),
    'subscription',
    'id',
  );
  s.ok('POST', `/subscriptions/${payer.id}/group.json`, { group: { target: { type: 'self' } } }, 200);
  s.ok(
    'POST',
    `/subscriptions/${member}/group.json`,
    { group: { target: { type: 'customer', id: payer.customer } } },
    200,
  );
  const uid = str(s.ok('GET', `/subscription_groups/lookup.json?subscription_id=${payer.id}`), 'uid');
  if (groupCard === 2) setGroupProfile(s, uid, s.card(payer.customer, 2));
  return { s, product, payer, member, childCustomer, uid };
}

const setGroupProfile = (s: Site, uid: string, profile: number) =>
  s.ok(
    'POST',
    `/subscription_groups/${uid}/payment_profiles/${profile}/change_payment_profile.json`,
    undefined,
    200,
  );

function groupInvoices(s: Site, uid: string): unknown[] {
  return arr(s.ok('GET', `/invoices.json?subscription_group_uid=${uid}&per_page=200`), 'invoices');
}

function consolidated(s: Site, uid: string) {
  const invoices = groupInvoices(s, uid);
  const parents = invoices.filter((invoice) => get(invoice, 'consolidation_level') === 'parent');
  const children = invoices.filter((invoice) => get(invoice, 'consolidation_level') === 'child');
  return { invoices, parents, children };
}

describe('consolidated renewal of a subscription group', () => {
  it('bills members renewing together on pending children under one parent the payer pays', () => {
    const { s, payer, member, uid } = grouped();
    const events = s.advance('2026-02-16T00:00:00Z');
    const { parents, children } = consolidated(s, uid);
    expect(parents).toHaveLength(1);
    expect(children).toHaveLength(2);
    const [parent] = parents;
    expect(parent).toMatchObject({
      role: 'renewal',
      status: 'paid',
      customer_id: payer.customer,
      subscription_id: payer.id,
      group_primary_subscription_id: payer.id,
      parent_invoice_uid: null,
    });
    expect(amount(parent, 'total_amount')).toBe(20);
    expect(arr(parent, 'line_items')).toHaveLength(2);
    expect(arr(parent, 'payments')).toHaveLength(1);
    expect(children.map((child) => get(child, 'subscription_id'))).toEqual([payer.id, member]);
    for (const child of children) {
      expect(child).toMatchObject({
        status: 'paid',
        parent_invoice_uid: get(parent, 'uid'),
        parent_invoice_number: Number(get(parent, 'number')),
        group_primary_subscription_id: payer.id,
        subscription_group_id: get(parent, 'subscription_group_id'),
      });
      expect(get(child, 'payer', 'email')).toBe(get(parent, 'customer', 'email'));
      expect(amount(child, 'total_amount')).toBe(10);
      expect(amount(child, 'due_amount')).toBe(0);
    }
    // One card payment, on the parent, with the payer's card.
    expect(events.filter((event) => event.key === 'payment_success')).toHaveLength(1);
    expect(events.filter((event) => event.key === 'renewal_success')).toHaveLength(2);
    expect(num(s.subscription(member), 'total_revenue_in_cents')).toBe(2000);
    expect(get(s.subscription(member), 'state')).toBe('active');
    expect(checkState(s.state)).toEqual([]);
  });

  it('collects with the group default payment profile, and applies members’ credits to their children', () => {
    const { s, payer, member, uid } = grouped(2);
    setGroupProfile(s, uid, s.card(payer.customer, 1));
    s.ok('POST', `/subscriptions/${member}/service_credits.json`, {
      service_credit: { amount: 4, memo: 'c' },
    });
    s.advance('2026-02-16T00:00:00Z');
    const { parents, children } = consolidated(s, uid);
    const [parent] = parents;
    expect(get(parent, 'status')).toBe('paid');
    expect(amount(parent, 'credit_amount')).toBe(4);
    expect(amount(get(parent, 'payments'), '0', 'applied_amount')).toBe(16);
    const memberChild = children.find((child) => get(child, 'subscription_id') === member);
    expect(amount(memberChild, 'credit_amount')).toBe(4);
    expect(num(s.subscription(member), 'credit_balance_in_cents')).toBe(0);
    expect(checkState(s.state)).toEqual([]);
  });

  it('members renewing at different instants each get their own parent', () => {
    const s = site();
    const product = s.product();
    const first = s.subscribed(product);
    s.at('2026-01-20T12:00:00Z');
    const second = num(
      s.subscribe({ product_id: product, customer_id: first.customer, payment_profile_id: first.profile }),
      'subscription',
      'id',
    );
    s.ok('POST', `/subscriptions/${first.id}/group.json`, { group: { target: { type: 'self' } } }, 200);
    s.ok('POST', `/subscriptions/${second}/group.json`, { group: { target: { type: 'self' } } }, 200);
    const uid = str(s.ok('GET', `/subscription_groups/lookup.json?subscription_id=${second}`), 'uid');
    s.advance('2026-02-21T00:00:00Z');
    const { parents, children } = consolidated(s, uid);
    expect(parents).toHaveLength(2);
    expect(children.map((child) => get(child, 'subscription_id'))).toEqual([first.id, second]);
    expect(parents.every((parent) => get(parent, 'status') === 'paid')).toBe(true);
  });
});

describe('a consolidated invoice that is not paid', () => {
  it('leaves its children pending; a child cannot be issued, paid or voided on its own', () => {
    const { s, payer, member, uid } = grouped(2);
    s.advance('2026-02-16T00:00:00Z');
    const { parents, children } = consolidated(s, uid);
    const [parent] = parents;
    expect(get(parent, 'status')).toBe('open');
    expect(children.map((child) => get(child, 'status'))).toEqual(['pending', 'pending']);
    const child = str(children[1], 'uid');
    const issue = s.fail('POST', `/invoices/${child}/issue.json`, {}, 422);
    expect(errorsOf(issue)).toMatch(/child invoice of a subscription group member cannot be issued/);
    s.fail('POST', `/invoices/${child}/void.json`, { void: { reason: 'no' } }, 422);
    const pay = s.fail(
      'POST',
      `/invoices/${child}/payments.json`,
      { payment: { amount: 1, memo: 'm' } },
      422,
    );
    expect(errorsOf(pay)).toMatch(/consolidated invoice/);
    // The group's open balance is the parent's due, counted once.
    const full = s.ok('GET', `/subscription_groups/${uid}.json`);
    expect(get(full, 'account_balances', 'open_invoices', 'balance_in_cents')).toBe(2000);
    // Dunning follows the primary; the member stays active.
    expect(get(s.subscription(payer.id), 'state')).toBe('past_due');
    expect(get(s.subscription(member), 'state')).toBe('active');
    expect(checkState(s.state)).toEqual([]);
  });

  it('a dunning retry with a working group profile pays the parent and every child', () => {
    const { s, payer, member, uid } = grouped(2);
    s.advance('2026-02-16T00:00:00Z');
    setGroupProfile(s, uid, s.card(payer.customer, 1));
    s.advance('2026-02-19T00:00:00Z');
    const { parents, children } = consolidated(s, uid);
    expect(get(parents[0], 'status')).toBe('paid');
    expect(children.map((child) => get(child, 'status'))).toEqual(['paid', 'paid']);
    expect(get(s.subscription(payer.id), 'state')).toBe('active');
    expect(num(s.subscription(member), 'total_revenue_in_cents')).toBe(2000);
    const full = s.ok('GET', `/subscription_groups/${uid}.json`);
    expect(get(full, 'account_balances', 'open_invoices', 'balance_in_cents')).toBe(0);
  });

  it('a payment recorded on the parent pays the children; voiding a parent voids its children', () => {
    const { s, uid } = grouped(2);
    s.advance('2026-02-16T00:00:00Z');
    const parent = str(consolidated(s, uid).parents[0], 'uid');
    s.ok(
      'POST',
      `/invoices/${parent}/payments.json`,
      { payment: { amount: 20, memo: 'check', method: 'check' } },
      200,
    );
    expect(consolidated(s, uid).children.map((child) => get(child, 'status'))).toEqual(['paid', 'paid']);
    s.advance('2026-03-16T00:00:00Z');
    const second = consolidated(s, uid).parents.find((invoice) => get(invoice, 'status') === 'open');
    s.ok('POST', `/invoices/${str(second, 'uid')}/void.json`, { void: { reason: 'waived' } }, 200);
    const voided = consolidated(s, uid).children.filter((child) => get(child, 'status') === 'voided');
    expect(voided).toHaveLength(2);
    expect(checkState(s.state)).toEqual([]);
  });
});

describe('a consolidated invoice paid with service credit', () => {
  /** A group whose parent is open for $20.00, and $25.00 of service credit on the primary. */
  function creditedParent() {
    const g = grouped(2);
    g.s.advance('2026-02-16T00:00:00Z');
    g.s.ok('POST', `/subscriptions/${g.payer.id}/service_credits.json`, {
      service_credit: { amount: '25', memo: 'goodwill' },
    });
    return { ...g, parent: str(consolidated(g.s, g.uid).parents[0], 'uid') };
  }
  const payWithCredit = (s: Site, parent: string, amount: string) =>
    s.ok(
      'POST',
      `/invoices/${parent}/payments.json`,
      { payment: { amount, memo: 'credit', method: 'check' }, type: 'service_credit' },
      200,
    );
  const siteRevenue = (s: Site, ids: readonly number[]) =>
    ids.reduce((total, id) => total + num(s.subscription(id), 'total_revenue_in_cents'), 0);

  it('settles the children; the site counts no revenue for the credit, and the books balance', () => {
    const { s, payer, member, uid, parent } = creditedParent();
    const before = siteRevenue(s, [payer.id, member]);
    const memberBefore = num(s.subscription(member), 'total_revenue_in_cents');
    s.ok(
      'POST',
      `/invoices/${parent}/payments.json`,
      { payment: { amount: '5', memo: 'check', method: 'check' } },
      200,
    );
    payWithCredit(s, parent, '15');
    expect(consolidated(s, uid).children.map((child) => get(child, 'status'))).toEqual(['paid', 'paid']);
    // The members earn what their children owed; the $15.00 of credit is no money received by the site.
    expect(num(s.subscription(member), 'total_revenue_in_cents') - memberBefore).toBe(1000);
    expect(siteRevenue(s, [payer.id, member]) - before).toBe(500);
    expect(num(s.subscription(payer.id), 'credit_balance_in_cents')).toBe(1000);
    expect(checkState(s.state)).toEqual([]);
  });

  it('paid wholly with credit: the children are paid, the site counts no revenue, the books balance', () => {
    const { s, payer, member, uid, parent } = creditedParent();
    const before = siteRevenue(s, [payer.id, member]);
    const payerBefore = num(s.subscription(payer.id), 'total_revenue_in_cents');
    payWithCredit(s, parent, '20');
    expect(consolidated(s, uid).children.map((child) => get(child, 'status'))).toEqual(['paid', 'paid']);
    expect(siteRevenue(s, [payer.id, member])).toBe(before);
    // The primary's own child earned $10.00 and its credit took $20.00 from its revenue.
    expect(num(s.subscription(payer.id), 'total_revenue_in_cents') - payerBefore).toBe(-1000);
    expect(num(s.subscription(payer.id), 'credit_balance_in_cents')).toBe(500);
    expect(checkState(s.state)).toEqual([]);
  });
});

describe('GET /invoices/{uid}/segments.json', () => {
  it('pages the child invoices of a parent, ascending or descending; other invoices have none', () => {
    const { s, payer, member, uid } = grouped();
    s.advance('2026-02-16T00:00:00Z');
    const { parents, invoices } = consolidated(s, uid);
    const parent = str(parents[0], 'uid');
    const segments = (query: string) =>
      arr(s.ok('GET', `/invoices/${parent}/segments.json${query}`), 'invoices').map((invoice) =>
        get(invoice, 'subscription_id'),
      );
    expect(segments('')).toEqual([payer.id, member]);
    expect(segments('?direction=desc')).toEqual([member, payer.id]);
    expect(segments('?page=2&per_page=1')).toEqual([member]);
    const child = str(
      invoices.find((invoice) => get(invoice, 'consolidation_level') === 'child'),
      'uid',
    );
    expect(arr(s.ok('GET', `/invoices/${child}/segments.json`), 'invoices')).toEqual([]);
    s.fail('GET', '/invoices/inv_unknown/segments.json', undefined, 404);
    s.fail('GET', `/invoices/${parent}/segments.json?per_page=0`, undefined, 422);
  });

  it('the subscription_group_uid filter of GET /invoices.json lists only that group’s invoices', () => {
    const { s, uid } = grouped();
    s.advance('2026-02-16T00:00:00Z');
    expect(groupInvoices(s, uid)).toHaveLength(3);
    expect(arr(s.ok('GET', '/invoices.json?subscription_group_uid=grp_nothing'), 'invoices')).toEqual([]);
  });
});

describe('the group of a subscription', () => {
  it('is presented as {uid, scheme, primary_subscription_id, primary}, null outside any group', () => {
    const { s, payer, member, uid, product } = grouped();
    expect(get(s.subscription(payer.id), 'group')).toEqual({
      uid,
      scheme: 1,
      primary_subscription_id: payer.id,
      primary: true,
    });
    expect(get(s.subscription(member), 'group')).toMatchObject({ uid, primary: false });
    expect(get(s.subscription(s.subscribed(product).id), 'group')).toBeNull();
  });
});

describe('add-to-group billing options', () => {
  /** A member subscribed five days before the primary, so its billing date differs. */
  function early() {
    const s = site();
    const product = s.product({ price_in_cents: 3100 });
    const member = s.subscribed(product);
    s.at('2026-01-20T12:00:00Z');
    const primary = s.subscribed(product);
    const parentOfBoth = primary.customer;
    s.ok('PUT', `/customers/${member.customer}.json`, { customer: { parent_id: parentOfBoth } });
    s.ok('POST', `/subscriptions/${primary.id}/group.json`, { group: { target: { type: 'self' } } }, 200);
    return { s, member, primary };
  }
  const join = (s: Site, id: number, customer: number, billing: Record<string, boolean>) =>
    s.request('POST', `/subscriptions/${id}/group.json`, {
      group: { target: { type: 'customer', id: customer }, billing },
    });

  it('align_date moves the next billing date to the primary’s; both then renew on one parent', () => {
    const { s, member, primary } = early();
    expect(join(s, member.id, primary.customer, { align_date: true }).status).toBe(200);
    const aligned = s.subscription(member.id);
    expect(get(aligned, 'next_assessment_at')).toBe(get(s.subscription(primary.id), 'next_assessment_at'));
    expect(get(aligned, 'current_period_ends_at')).toBe(get(aligned, 'next_assessment_at'));
    const uid = str(get(aligned, 'group'), 'uid');
    expect(consolidated(s, uid).invoices).toEqual([]);
    s.advance('2026-02-21T00:00:00Z');
    const { parents, children } = consolidated(s, uid);
    expect(parents).toHaveLength(1);
    expect(children).toHaveLength(2);
    expect(get(s.subscription(member.id), 'current_period_started_at')).toBe(
      get(s.subscription(primary.id), 'current_period_started_at'),
    );
  });

  it('prorate charges the longer period on a consolidated proration invoice paid by the group', () => {
    const { s, member, primary } = early();
    expect(join(s, member.id, primary.customer, { align_date: true, prorate: true }).status).toBe(200);
    const uid = str(get(s.subscription(member.id), 'group'), 'uid');
    const { parents, children } = consolidated(s, uid);
    expect(parents).toHaveLength(1);
    expect(get(parents[0], 'role')).toBe('proration');
    expect(get(parents[0], 'status')).toBe('paid');
    // Five more days of a 31-day period at $31.00.
    expect(amount(parents[0], 'total_amount')).toBe(5);
    expect(get(children[0], 'subscription_id')).toBe(member.id);
  });

  it('prorate credits a shorter period as a service credit', () => {
    const s = site();
    const product = s.product({ price_in_cents: 3100 });
    const primary = s.subscribed(product);
    s.at('2026-01-20T12:00:00Z');
    const member = s.subscribed(product);
    s.ok('PUT', `/customers/${member.customer}.json`, { customer: { parent_id: primary.customer } });
    s.ok('POST', `/subscriptions/${primary.id}/group.json`, { group: { target: { type: 'self' } } }, 200);
    expect(join(s, member.id, primary.customer, { align_date: true, prorate: true }).status).toBe(200);
    expect(num(s.subscription(member.id), 'credit_balance_in_cents')).toBe(500);
  });

  it('refuses accrue, prorate without align_date, and a charge that cannot be collected', () => {
    const { s, member, primary } = early();
    const before = s.state;
    const accrued = join(s, member.id, primary.customer, { accrue: true });
    expect(accrued.status).toBe(422);
    expect(JSON.stringify(accrued.body)).toMatch(/accrue is not supported/);
    expect(join(s, member.id, primary.customer, { prorate: true }).status).toBe(422);
    const uid = str(s.ok('GET', `/subscription_groups/lookup.json?subscription_id=${primary.id}`), 'uid');
    setGroupProfile(s, uid, s.card(primary.customer, 2));
    const refused = join(s, member.id, primary.customer, { align_date: true, prorate: true });
    expect(refused.status).toBe(422);
    expect(JSON.stringify(refused.body)).toMatch(/could not be collected/);
    expect(s.request('GET', `/subscription_groups/lookup.json?subscription_id=${member.id}`).status).toBe(
      404,
    );
    expect(before).not.toBe(s.state);
  });
});
