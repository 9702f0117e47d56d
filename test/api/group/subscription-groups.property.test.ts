/**
 * Laws of subscription groups under random sequences of add, remove, create, update members, delete,
 * balance changes, default profile changes and renewals: membership is a partition (a subscription is in
 * at most one group, and lookup agrees with the member lists), the primary is always the first member,
 * balances are sums over members, and every consolidated invoice owes exactly what its children do.
 */
import { test } from '@fast-check/vitest';
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import type { SiteState } from '../../../src/index.js';
import { checkState } from '../../../src/testing/index.js';
import { arr, get, num, type Site, site } from '../../helpers/api.js';

interface Fixture {
  readonly state: SiteState;
  readonly subscriptions: readonly number[];
  /** Per customer: a card that pays and one that authorizes but never pays. */
  readonly cards: ReadonlyMap<number, { readonly good: number; readonly failing: number }>;
}

function fixture(): Fixture {
  const s = site();
  const product = s.product();
  const a = s.customer();
  const a1 = s.customer({ parent_id: a });
  const a2 = s.customer({ parent_id: a1 });
  const b = s.customer();
  const b1 = s.customer({ parent_id: b });
  const subscriptions: number[] = [];
  const cards = new Map<number, { good: number; failing: number }>();
  for (const customer of [a, a1, a2, b, b1, a1, b]) {
    const profile = s.card(customer);
    if (!cards.has(customer)) cards.set(customer, { good: profile, failing: s.card(customer, 2) });
    const remittance = subscriptions.length >= 5;
    const body = s.subscribe({
      product_id: product,
      customer_id: customer,
      ...(remittance ? { payment_collection_method: 'remittance' } : { payment_profile_id: profile }),
    });
    subscriptions.push(num(body, 'subscription', 'id'));
  }
  return { state: s.state, subscriptions, cards };
}

const TARGETS = ['self', 'parent', 'eldest', 'customer', 'subscription'] as const;
const pick = fc.nat({ max: 6 });
const command = fc.oneof(
  fc.record({
    kind: fc.constant('add' as const),
    sub: pick,
    target: fc.constantFrom(...TARGETS),
    ref: pick,
    billing: fc.constantFrom({}, { align_date: true }, { align_date: true, prorate: true }),
  }),
  fc.record({ kind: fc.constant('remove' as const), sub: pick }),
  fc.record({ kind: fc.constant('create' as const), sub: pick, members: fc.array(pick, { maxLength: 4 }) }),
  fc.record({ kind: fc.constant('update' as const), group: pick, members: fc.array(pick, { maxLength: 5 }) }),
  fc.record({ kind: fc.constant('delete' as const), group: pick }),
  fc.record({ kind: fc.constant('prepay' as const), sub: pick, cents: fc.integer({ min: 1, max: 5000 }) }),
  fc.record({ kind: fc.constant('credit' as const), sub: pick, cents: fc.integer({ min: 1, max: 5000 }) }),
  fc.record({ kind: fc.constant('profile' as const), group: pick, failing: fc.boolean() }),
  fc.record({ kind: fc.constant('renew' as const), days: fc.integer({ min: 10, max: 45 }) }),
);
type Command = typeof command extends fc.Arbitrary<infer T> ? T : never;

const base = fixture();
const at = (index: number): number => base.subscriptions[index % base.subscriptions.length] ?? 0;

function groups(s: Site): unknown[] {
  return arr(s.ok('GET', '/subscription_groups.json?per_page=200'), 'subscription_groups');
}

function run(s: Site, step: Command): number {
  const uidAt = (index: number) => {
    const list = groups(s);
    return list.length === 0 ? 'grp_0000000000001' : String(get(list[index % list.length], 'uid'));
  };
  switch (step.kind) {
    case 'add': {
      const customer = num(s.subscription(at(step.ref)), 'customer', 'id');
      const id = step.target === 'customer' ? customer : at(step.ref);
      const target =
        step.target === 'customer' || step.target === 'subscription'
          ? { type: step.target, id }
          : { type: step.target };
      return s.request('POST', `/subscriptions/${at(step.sub)}/group.json`, {
        group: { target, billing: step.billing },
      }).status;
    }
    case 'remove':
      return s.request('DELETE', `/subscriptions/${at(step.sub)}/group.json`).status;
    case 'create':
      return s.request('POST', '/subscription_groups.json', {
        subscription_group: { subscription_id: at(step.sub), member_ids: step.members.map(at) },
      }).status;
    case 'update': {
      const uid = uidAt(step.group);
      const body = { subscription_group: { member_ids: step.members.map(at) } };
      return s.request('PUT', `/subscription_groups/${uid}.json`, body).status;
    }
    case 'delete':
      return s.request('DELETE', `/subscription_groups/${uidAt(step.group)}.json`).status;
    case 'prepay':
      return s.request('POST', `/subscriptions/${at(step.sub)}/prepayments.json`, {
        prepayment: { amount: step.cents / 100, memo: 'p', method: 'cash' },
      }).status;
    case 'credit':
      return s.request('POST', `/subscriptions/${at(step.sub)}/service_credits.json`, {
        service_credit: { amount: step.cents / 100, memo: 'c' },
      }).status;
    case 'profile': {
      const list = groups(s);
      const group = list[step.group % Math.max(1, list.length)];
      const cards = base.cards.get(Number(get(group, 'customer_id')));
      if (group === undefined || cards === undefined) return 404;
      const profile = step.failing ? cards.failing : cards.good;
      const path = `/subscription_groups/${String(get(group, 'uid'))}/payment_profiles/${profile}/change_payment_profile.json`;
      return s.request('POST', path).status;
    }
    case 'renew':
      s.advance(new Date(Date.parse(s.now) + step.days * 86_400_000).toISOString());
      return 200;
  }
}

/** Each consolidated invoice: its children owe what it owes, and are paid exactly when it is. */
function checkConsolidated(s: Site): void {
  const invoices = arr(s.ok('GET', '/invoices.json?per_page=200'), 'invoices');
  const children = invoices.filter((invoice) => get(invoice, 'consolidation_level') === 'child');
  let segmentCount = 0;
  for (const parent of invoices.filter((invoice) => get(invoice, 'consolidation_level') === 'parent')) {
    const uid = String(get(parent, 'uid'));
    const segments = arr(s.ok('GET', `/invoices/${uid}/segments.json?per_page=200`), 'invoices');
    expect(segments.length).toBeGreaterThan(0);
    segmentCount += segments.length;
    const total = segments.reduce<number>((sum, child) => sum + cents(get(child, 'total_amount')), 0);
    const due = segments.reduce<number>((sum, child) => sum + cents(get(child, 'due_amount')), 0);
    expect(cents(get(parent, 'total_amount'))).toBe(total);
    const status = get(parent, 'status');
    if (status === 'open') expect(cents(get(parent, 'due_amount'))).toBe(due);
    // Children wait (pending) while the parent is owed: open, or canceled with the primary.
    const expected = status === 'open' || status === 'canceled' ? 'pending' : status;
    for (const child of segments) {
      expect(get(child, 'status')).toBe(expected);
      expect(get(child, 'parent_invoice_uid')).toBe(uid);
      expect(get(child, 'group_primary_subscription_id')).toBe(get(parent, 'subscription_id'));
    }
  }
  expect(segmentCount).toBe(children.length);
}

const cents = (amount: unknown): number => Math.round(Number(amount) * 100);

function checkLaws(s: Site): void {
  const owner = new Map<number, string>();
  for (const group of groups(s)) {
    const uid = String(get(group, 'uid'));
    const ids = arr(group, 'subscription_ids').map(Number);
    expect(ids.length).toBeGreaterThan(0);
    expect(ids[0]).toBe(get(group, 'primary_subscription_id'));
    for (const id of ids) {
      expect(owner.has(id), `subscription ${id} in two groups`).toBe(false);
      owner.set(id, uid);
    }
    const full = s.ok('GET', `/subscription_groups/${uid}.json`);
    let prepaid = 0;
    let credited = 0;
    let open = 0;
    for (const id of ids) {
      const subscription = s.subscription(id);
      prepaid += num(subscription, 'prepayment_balance_in_cents');
      credited += num(subscription, 'credit_balance_in_cents');
      for (const invoice of s.invoices(id))
        if (get(invoice, 'status') === 'open') open += cents(get(invoice, 'due_amount'));
    }
    expect(get(full, 'account_balances')).toEqual({
      prepayments: { balance_in_cents: prepaid },
      service_credits: { balance_in_cents: credited },
      open_invoices: { balance_in_cents: open },
      pending_discounts: { balance_in_cents: 0 },
    });
  }
  for (const id of base.subscriptions) {
    const found = s.request('GET', `/subscription_groups/lookup.json?subscription_id=${id}`);
    const expected = owner.get(id);
    if (expected === undefined) expect(found.status).toBe(404);
    else expect(get(found.body, 'uid')).toBe(expected);
  }
}

describe('subscription group laws', () => {
  test.prop([fc.array(command, { minLength: 1, maxLength: 12 })], { numRuns: 40 })(
    'membership is a partition, the primary is a member, balances are member sums, parents owe their children',
    (steps) => {
      const s = site();
      s.state = base.state;
      for (const step of steps) {
        expect([200, 201, 204, 404, 422]).toContain(run(s, step));
        checkLaws(s);
      }
      checkConsolidated(s);
      expect(checkState(s.state)).toEqual([]);
    },
  );
});
