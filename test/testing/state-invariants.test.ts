/**
 * The site-wide checks of `billing-core/testing` hold on real sites and report each kind of corruption:
 * balances that are not the sums of their entries, group membership that is not a partition, state
 * changes the transition table does not allow.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyChanges, type SiteState } from '../../src/index.js';
import { tableGet, tableRows } from '../../src/kernel/collection.js';
import {
  allowedTransition,
  checkBalances,
  checkGroups,
  checkState,
  checkTransitions,
  componentArbitrary,
  couponArbitrary,
  customerArbitrary,
  productArbitrary,
  simulationConfig,
} from '../../src/testing/index.js';
import { num, site } from '../helpers/api.js';

/** A customer with two subscriptions in one group, a prepayment, and a paid ad hoc invoice. */
function groupedSite() {
  const s = site();
  const product = s.product();
  const first = s.subscribed(product);
  const second = num(
    s.subscribe({ product_id: product, customer_id: first.customer, payment_profile_id: first.profile }),
    'subscription',
    'id',
  );
  s.ok('POST', `/subscriptions/${first.id}/group.json`, { group: { target: { type: 'self' } } }, 200);
  s.ok(
    'POST',
    `/subscriptions/${second}/group.json`,
    { group: { target: { type: 'subscription', id: first.id } } },
    200,
  );
  s.ok('POST', `/subscriptions/${first.id}/prepayments.json`, {
    prepayment: { amount: '25', memo: 'up front' },
  });
  return { s, first: first.id, second };
}

const subscriptionOf = (state: SiteState, id: number) => {
  const found = tableGet(state.tables.subscriptions, id);
  if (found === undefined) throw new Error(`subscription ${id}`);
  return found;
};

describe('site-wide invariants', () => {
  it('hold on a site with a group, a prepayment and invoices', () => {
    const { s } = groupedSite();
    expect(checkState(s.state)).toEqual([]);
  });

  it('checkBalances reports a prepayment balance that is not the sum of its entries, and a negative one', () => {
    const { s, first } = groupedSite();
    const subscription = subscriptionOf(s.state, first);
    const inflated = applyChanges(s.state, [
      { type: 'put', table: 'subscriptions', row: { ...subscription, prepaymentBalance: '30' } },
    ]);
    expect(checkBalances(inflated).join('\n')).toContain('its entries add up to 2500 minor units');
    const negative = applyChanges(s.state, [
      { type: 'put', table: 'subscriptions', row: { ...subscription, serviceCreditBalance: '-1' } },
    ]);
    expect(checkBalances(negative).join('\n')).toContain('negative service credit balance');
  });

  it('checkBalances counts a prepayment paid on a consolidated parent invoice against the primary', () => {
    const s = site();
    const product = s.product();
    const customer = s.customer();
    const id = num(
      s.subscribe({ product_id: product, customer_id: customer, payment_collection_method: 'remittance' }),
      'subscription',
      'id',
    );
    s.ok('POST', `/subscriptions/${id}/group.json`, { group: { target: { type: 'self' } } }, 200);
    s.advance('2026-02-16T12:00:00Z');
    const parent = [...tableRows(s.state.tables.invoices)].find(
      (invoice) => invoice.consolidationLevel === 'parent',
    );
    if (parent === undefined) throw new Error('the renewal is consolidated');
    s.ok('POST', `/subscriptions/${id}/prepayments.json`, { prepayment: { amount: '6.86' } });
    s.ok(
      'POST',
      `/invoices/${parent.uid}/payments.json`,
      { payment: { amount: '0.07' }, type: 'prepayment' },
      200,
    );
    expect(subscriptionOf(s.state, id).prepaymentBalance).toBe('6.79');
    expect(checkState(s.state)).toEqual([]);
  });

  it('checkBalances reports an invoice whose paid amount is not the sum of its payments', () => {
    const { s } = groupedSite();
    const invoice = tableGet(s.state.tables.invoices, 1);
    if (invoice === undefined) throw new Error('the signup invoice');
    const corrupted = applyChanges(s.state, [
      { type: 'put', table: 'invoices', row: { ...invoice, totals: { ...invoice.totals, paid: '1234' } } },
    ]);
    expect(checkBalances(corrupted).join('\n')).toContain('paid 1234, payments add up to');
  });

  it('checkGroups reports a subscription in two groups and a member without its membership row', () => {
    const { s, first, second } = groupedSite();
    const group = tableGet(s.state.tables.subscriptionGroups, 1);
    if (group === undefined) throw new Error('the group');
    const twice = applyChanges(s.state, [
      {
        type: 'put',
        table: 'subscriptionGroups',
        row: { ...group, id: 2, uid: 'grp_2', memberIds: [second] },
      },
    ]);
    expect(checkGroups(twice).join('\n')).toContain(`subscription ${second} is in groups 1 and 2`);
    const orphan = applyChanges(s.state, [{ type: 'delete', table: 'groupMemberships', id: 2 }]);
    expect(checkGroups(orphan).join('\n')).toContain(`grouped subscription ${second} has no membership row`);
    const reordered = applyChanges(s.state, [
      { type: 'put', table: 'subscriptionGroups', row: { ...group, memberIds: [second, first] } },
    ]);
    expect(checkGroups(reordered).join('\n')).toContain('the primary is not its first member');
  });

  it('checkTransitions reports a state change the table does not allow and a subscription off its log', () => {
    const { s, first } = groupedSite();
    s.ok('DELETE', `/subscriptions/${first}.json`, undefined, 200);
    expect(checkTransitions(s.state)).toEqual([]);
    const subscription = subscriptionOf(s.state, first);
    const moved = applyChanges(s.state, [
      { type: 'put', table: 'subscriptions', row: { ...subscription, state: 'on_hold' } },
    ]);
    expect(checkTransitions(moved).join('\n')).toContain(
      'is on_hold, but its last state change ended in canceled',
    );
    const impossible = applyChanges(s.state, [
      {
        type: 'event',
        event: {
          id: s.state.events.length + 1,
          key: 'subscription_state_change',
          message: 'forged',
          subscription_id: first,
          customer_id: subscription.customerId,
          created_at: s.now,
          event_specific_data: { previous_subscription_state: 'canceled', new_subscription_state: 'expired' },
        },
      },
    ]);
    expect(checkTransitions(impossible).join('\n')).toContain('canceled → expired');
  });

  it('allowedTransition follows the table: hold leads from active to on_hold, nothing leaves expired', () => {
    expect(allowedTransition('active', 'on_hold')).toBe(true);
    expect(allowedTransition('on_hold', 'active')).toBe(true);
    expect(allowedTransition('canceled', 'active')).toBe(true);
    expect(allowedTransition('expired', 'active')).toBe(false);
    expect(allowedTransition('canceled', 'on_hold')).toBe(false);
  });
});

describe('catalog arbitraries', () => {
  it('law: every generated product, component, coupon and customer is accepted by the API', () => {
    fc.assert(
      fc.property(
        productArbitrary(),
        componentArbitrary(1),
        couponArbitrary(),
        customerArbitrary(),
        (product, component, coupon, customer) => {
          const s = site(simulationConfig());
          const family = s.family();
          s.ok('POST', `/product_families/${family}/products.json`, { product });
          const plural = `${component.kind}s`;
          s.ok('POST', `/product_families/${family}/${plural}.json`, { [component.kind]: component.fields });
          s.ok('POST', `/product_families/${family}/coupons.json`, { coupon });
          s.ok('POST', '/customers.json', { customer });
          expect(checkState(s.state)).toEqual([]);
        },
      ),
      { numRuns: 40 },
    );
  });
});
