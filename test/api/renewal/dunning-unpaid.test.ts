/**
 * The `unpaid` final action (issue 20): Maxio's "Charges accrue, but collections pause". After dunning
 * ends in `unpaid`, every renewal still starts its period and issues its invoice, owed and open, but the
 * gateway is not asked again until the subscription is reactivated or what it owes is paid.
 */
import { describe, expect, it } from 'vitest';
import { advance, handle, type PaymentAttempt, type PaymentGateway } from '../../../src/index.js';
import { checkLedger, checkState } from '../../../src/testing/index.js';
import { get, num, site, str } from '../../helpers/api.js';

const keys = (events: readonly { key: string }[]) => events.map((event) => event.key);

/** A $20.00 monthly subscription whose renewal of 15 February fails, dunning [1, 2] days, then `unpaid`. */
function unpaidSubscription() {
  const s = site({ dunning: { retryDays: [1, 2], finalAction: 'unpaid' } });
  const { id } = s.subscribed(s.product({ price_in_cents: 2000 }));
  const attempts: PaymentAttempt[] = [];
  let accept = false;
  const gateway: PaymentGateway = (attempt) => {
    attempts.push(attempt);
    return accept ? { success: true } : { success: false, message: 'Card declined' };
  };
  let state = s.state;
  for (const now of ['2026-02-15T12:00:00Z', '2026-02-16T12:00:00Z', '2026-02-17T12:00:00Z'])
    state = advance(state, { now, payments: gateway }).state;
  s.state = state;
  return { s, id, attempts, gateway, accept: () => (accept = true) };
}

describe('unpaid: charges accrue, collections pause', () => {
  it('three renewals in unpaid invoice every period and attempt no payment', () => {
    const { s, id, attempts, gateway } = unpaidSubscription();
    expect(get(s.subscription(id), 'state')).toBe('unpaid');
    expect(attempts).toHaveLength(3); // the renewal and its two retries
    let state = s.state;
    const renewals: string[][] = [];
    for (const now of ['2026-03-15T12:00:00Z', '2026-04-15T12:00:00Z', '2026-05-15T12:00:00Z']) {
      const advanced = advance(state, { now, payments: gateway });
      renewals.push(keys(advanced.events));
      state = advanced.state;
    }
    s.state = state;
    expect(attempts).toHaveLength(3);
    expect(renewals).toEqual([
      ['statement_closed', 'invoice_issued', 'renewal_failure'],
      ['statement_closed', 'invoice_issued', 'renewal_failure'],
      ['statement_closed', 'invoice_issued', 'renewal_failure'],
    ]);
    const invoices = s.invoices(id);
    expect(invoices.map((invoice) => [str(invoice, 'status'), str(invoice, 'due_amount')])).toEqual([
      ['paid', '0.00'],
      ['open', '20.00'],
      ['open', '20.00'],
      ['open', '20.00'],
      ['open', '20.00'],
    ]);
    expect(get(s.subscription(id), 'state')).toBe('unpaid');
    expect(checkState(s.state)).toEqual([]);
  });

  it('paying everything owed returns it to active, and the next renewal is collected again', () => {
    const { s, id, attempts, gateway, accept } = unpaidSubscription();
    s.state = advance(s.state, { now: '2026-03-15T12:00:00Z', payments: gateway }).state;
    s.at('2026-03-20T00:00:00Z');
    const owed = s.invoices(id).filter((invoice) => get(invoice, 'status') === 'open');
    expect(owed).toHaveLength(2);
    for (const invoice of owed)
      s.ok(
        'POST',
        `/invoices/${str(invoice, 'uid')}/payments.json`,
        { payment: { amount: '20', memo: 'Wire' } },
        200,
      );
    expect(get(s.subscription(id), 'state')).toBe('active');
    accept();
    const renewed = advance(s.state, { now: '2026-04-15T12:00:00Z', payments: gateway });
    expect(keys(renewed.events)).toContain('renewal_success');
    expect(attempts).toHaveLength(4);
    expect(checkLedger(renewed.state)).toEqual([]);
  });

  it('one payment of two owed invoices keeps collections paused', () => {
    const { s, id, gateway } = unpaidSubscription();
    s.state = advance(s.state, { now: '2026-03-15T12:00:00Z', payments: gateway }).state;
    s.at('2026-03-20T00:00:00Z');
    const first = s.invoices(id).find((invoice) => get(invoice, 'status') === 'open');
    s.ok(
      'POST',
      `/invoices/${str(first, 'uid')}/payments.json`,
      { payment: { amount: '20', memo: 'Wire' } },
      200,
    );
    expect(get(s.subscription(id), 'state')).toBe('unpaid');
  });

  it('reactivation collects what accrued', () => {
    const { s, id, attempts, gateway, accept } = unpaidSubscription();
    let state = advance(s.state, { now: '2026-03-15T12:00:00Z', payments: gateway }).state;
    accept();
    const reactivated = handle(
      state,
      { method: 'PUT', path: `/subscriptions/${id}/reactivate.json`, body: {} },
      { now: '2026-03-20T00:00:00Z', payments: gateway },
    );
    expect(reactivated.response.status).toBe(200);
    state = reactivated.state;
    s.state = state;
    expect(get(s.subscription(id), 'state')).toBe('active');
    // The two owed invoices are collected; the period it is in was billed already, so no new invoice.
    expect(attempts).toHaveLength(5);
    expect(s.invoices(id).map((invoice) => str(invoice, 'status'))).toEqual(['paid', 'paid', 'paid']);
    expect(get(s.subscription(id), 'current_period_started_at')).toBe('2026-03-15T12:00:00Z');
    expect(num(s.subscription(id), 'balance_in_cents')).toBe(0);
    expect(checkLedger(state)).toEqual([]);
  });
});
