/** A state saved before credit notes and prepayments were kept loads and works once upgraded. */
import { describe, expect, it } from 'vitest';
import { type SiteState, upgradeState } from '../../src/index.js';
import { checkState } from '../../src/testing/index.js';
import { num, site, str } from '../helpers/api.js';
import { createAdHoc, custom, remittance } from '../helpers/invoices.js';

/** The state as an earlier version saved it: without the tables and list indexes added since. */
function older(state: SiteState): SiteState {
  const saved = JSON.parse(JSON.stringify(state)) as {
    tables: Record<string, unknown>;
    listIndexes: Record<string, unknown>;
  };
  delete saved.tables['creditNotes'];
  delete saved.tables['prepayments'];
  delete saved.listIndexes['subscriptionPrepayments'];
  delete saved.listIndexes['subscriptionCreditNotes'];
  return saved as unknown as SiteState;
}

describe('upgradeState', () => {
  it('answers a current state as it is', () => {
    const s = site();
    expect(upgradeState(s.state)).toBe(s.state);
  });

  it('fills in what an older state lacks, after which money moves as usual', () => {
    const s = site();
    const sub = remittance(s);
    const uid = str(createAdHoc(s, sub.id, { line_items: [custom('Work', 1, '10')] }), 'uid');
    s.state = upgradeState(older(s.state));
    expect(s.state.tables.creditNotes.rows.length).toBe(0);
    const paid = s.ok('POST', `/invoices/${uid}/payments.json`, { payment: { amount: '10' } }, 200);
    const payment_id = num(paid, 'payments', 0, 'transaction_id');
    s.ok(
      'POST',
      `/invoices/${uid}/refunds.json`,
      { refund: { amount: '3', memo: 'm', payment_id, external: true } },
      200,
    );
    s.ok('POST', `/subscriptions/${sub.id}/prepayments.json`, { prepayment: { amount: 5, memo: 'p' } });
    expect(checkState(s.state)).toEqual([]);
  });
});
