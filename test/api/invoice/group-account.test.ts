/** A subscription group's invoice account: prepayments and service credits under /subscription_groups/{uid}. */
import { describe, expect, it } from 'vitest';
import { checkState } from '../../../src/testing/index.js';
import { arr, get, num, site, str } from '../../helpers/api.js';
import { remittance } from '../../helpers/invoices.js';

/** A group of two remittance subscriptions of one customer. */
function group() {
  const s = site();
  const primary = remittance(s);
  const member = num(
    s.subscribe({
      product_id: primary.product,
      customer_id: primary.customer,
      payment_collection_method: 'remittance',
    }),
    'subscription',
    'id',
  );
  s.ok('POST', '/subscription_groups.json', {
    subscription_group: { subscription_id: primary.id, member_ids: [member] },
  });
  const found = s.ok('GET', `/subscription_groups/lookup.json?subscription_id=${primary.id}`);
  return { s, primary: primary.id, member, uid: str(found, 'uid') };
}

describe("a subscription group's account", () => {
  it('takes prepayments on the primary and lists every member’s', () => {
    const { s, primary, member, uid } = group();
    const created = s.ok('POST', `/subscription_groups/${uid}/prepayments.json`, {
      prepayment: { amount: 20, details: 'Cheque 5', memo: 'Ahead', method: 'check' },
    });
    expect(created).toMatchObject({
      amount_in_cents: 2000,
      ending_balance_in_cents: 2000,
      entry_type: 'Credit',
    });
    s.ok('POST', `/subscriptions/${member}/prepayments.json`, {
      prepayment: { amount: 5, memo: 'm', method: 'cash' },
    });
    expect(num(s.subscription(primary), 'prepayment_balance_in_cents')).toBe(2000);
    const listed = arr(s.ok('GET', `/subscription_groups/${uid}/prepayments.json`), 'prepayments');
    expect(listed).toMatchObject([
      {
        prepayment: {
          subscription_group_uid: uid,
          amount_in_cents: 2000,
          remaining_amount_in_cents: 2000,
          details: 'Cheque 5',
        },
      },
      { prepayment: { amount_in_cents: 500 } },
    ]);
    expect(checkState(s.state)).toEqual([]);
  });

  it('issues and deducts service credit on the primary', () => {
    const { s, primary, uid } = group();
    const issued = s.ok('POST', `/subscription_groups/${uid}/service_credits.json`, {
      service_credit: { amount: '9', memo: 'Outage' },
    });
    expect(get(issued, 'service_credit')).toMatchObject({
      amount_in_cents: 900,
      ending_balance_in_cents: 900,
    });
    const deducted = s.ok('POST', `/subscription_groups/${uid}/service_credit_deductions.json`, {
      deduction: { amount: '4', memo: 'Fix' },
    });
    expect(deducted).toMatchObject({
      amount_in_cents: 400,
      ending_balance_in_cents: 500,
      entry_type: 'Debit',
    });
    expect(num(s.subscription(primary), 'credit_balance_in_cents')).toBe(500);
    s.fail(
      'POST',
      `/subscription_groups/${uid}/service_credit_deductions.json`,
      { deduction: { amount: '6' } },
      422,
    );
    s.fail(
      'POST',
      '/subscription_groups/grp_0000000000999/service_credits.json',
      { service_credit: { amount: '1' } },
      404,
    );
    expect(checkState(s.state)).toEqual([]);
  });
});
