/** Refunds of invoice payments (external and through the gateway, partial and full) and their credit notes. */
import { describe, expect, it } from 'vitest';
import { handleAsync } from '../../../src/index.js';
import { checkLedger, checkState } from '../../../src/testing/index.js';
import { arr, get, num, type Site, site, str } from '../../helpers/api.js';
import { createAdHoc, custom, remittance, withGateway } from '../../helpers/invoices.js';

const sound = (s: Site) => {
  expect(checkLedger(s.state)).toEqual([]);
  expect(checkState(s.state)).toEqual([]);
};

/** A remittance subscription with a $30 ad hoc invoice paid by check. */
function paidByCheck() {
  const s = site();
  const sub = remittance(s);
  const uid = str(createAdHoc(s, sub.id, { line_items: [custom('Work', 3, '10')] }), 'uid');
  const paid = s.ok(
    'POST',
    `/invoices/${uid}/payments.json`,
    { payment: { amount: '30', memo: 'Check 42', method: 'check' } },
    200,
  );
  const paymentId = num(paid, 'payments', 0, 'transaction_id');
  return { s, ...sub, uid, paymentId };
}

/** An automatic subscription to a $10 product paid by a card at signup. */
function paidByCard() {
  const s = site();
  const product = s.product();
  const { id, customer } = s.subscribed(product, 1);
  const invoice = s.invoices(id)[0];
  const uid = str(invoice, 'uid');
  const paymentId = num(invoice, 'payments', 0, 'transaction_id');
  return { s, id, customer, uid, paymentId };
}

const refund = (paymentId: number, amount: string, extra: Record<string, unknown> = {}) => ({
  refund: { amount, memo: 'Goodwill', payment_id: paymentId, ...extra },
});

describe('refunding an invoice', () => {
  it('an external partial refund reopens what it returns, issues a credit note and lowers revenue', () => {
    const { s, id, uid, paymentId } = paidByCheck();
    const called = s.request(
      'POST',
      `/invoices/${uid}/refunds.json`,
      refund(paymentId, '10', { external: true }),
    );
    expect(called.status).toBe(200);
    expect(called.body).toMatchObject({
      uid,
      status: 'open',
      refund_amount: '10.00',
      paid_amount: '30.00',
      due_amount: '10.00',
      refunds: [
        { payment_id: paymentId, applied_amount: '10.00', gateway_used: 'external', memo: 'Goodwill' },
      ],
    });
    expect(called.events.map((event) => event.key)).toEqual(['refund_success']);
    expect(num(s.subscription(id), 'total_revenue_in_cents')).toBe(2000);
    const notes = arr(s.ok('GET', `/credit_notes.json?subscription_id=${id}&refunds=true`), 'credit_notes');
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({
      status: 'applied',
      total_amount: '10.00',
      applied_amount: '0.00',
      remaining_amount: '0.00',
      origin_invoices: [{ uid }],
      refunds: [{ payment_id: paymentId, applied_amount: '10.00' }],
    });
    expect(get(notes[0], 'applications')).toBeUndefined();
    sound(s);
  });

  it('with apply_credit the refund is settled by its credit note: the invoice stays paid', () => {
    const { s, uid, paymentId } = paidByCheck();
    const body = s.ok(
      'POST',
      `/invoices/${uid}/refunds.json`,
      refund(paymentId, '30', { external: true, apply_credit: true }),
      200,
    );
    expect(body).toMatchObject({
      status: 'paid',
      credit_amount: '30.00',
      refund_amount: '30.00',
      due_amount: '0.00',
    });
    const noteUid = str(body, 'credits', 0, 'credit_note_uid');
    const note = s.ok('GET', `/credit_notes/${noteUid}.json`);
    expect(note).toMatchObject({
      uid: noteUid,
      applied_amount: '30.00',
      remaining_amount: '0.00',
      applications: [{ invoice_uid: uid, applied_amount: '30.00' }],
      refunds: [],
    });
    sound(s);
  });

  it('a full refund with void_invoice voids the invoice; nothing moves to prepayments', () => {
    const { s, id, uid, paymentId } = paidByCheck();
    const body = s.ok(
      'POST',
      `/invoices/${uid}/refunds.json`,
      refund(paymentId, '30', { external: true, void_invoice: true }),
      200,
    );
    expect(body).toMatchObject({ status: 'voided', refund_amount: '30.00', due_amount: '0.00' });
    expect(get(s.ok('GET', `/subscriptions/${id}/account_balances.json`), 'prepayments')).toEqual({
      balance_in_cents: 0,
    });
    sound(s);
  });

  it('a refund through the gateway goes to the card the payment came from', () => {
    const { s, uid, paymentId } = paidByCard();
    const attempts: string[] = [];
    const called = withGateway(
      s,
      (attempt) => {
        attempts.push(`${attempt.kind} ${attempt.amount} ${attempt.paymentProfile.lastFour}`);
        return { success: true, gatewayTransactionId: 'rf_1' };
      },
      'POST',
      `/invoices/${uid}/refunds.json`,
      refund(paymentId, '4'),
    );
    expect(called.status).toBe(200);
    expect(attempts).toEqual(['refund 4 1111']);
    expect(called.body).toMatchObject({
      status: 'open',
      due_amount: '4.00',
      refunds: [{ gateway_transaction_id: 'rf_1', gateway_used: 'bogus' }],
    });
    sound(s);
  });

  it('an asynchronous processor refunds once, keyed by the refund', async () => {
    const { s, uid, paymentId } = paidByCard();
    const keys: string[] = [];
    const result = await handleAsync(
      s.state,
      { method: 'POST', path: `/invoices/${uid}/refunds.json`, body: refund(paymentId, '2.5') },
      {
        now: s.now,
        payments: async (attempt) => {
          keys.push(`${attempt.kind} ${attempt.idempotencyKey}`);
          return { success: true, gatewayTransactionId: 'rf_async' };
        },
      },
    );
    expect(result.response.status).toBe(200);
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatch(new RegExp(`^refund acme/${uid}/refund/1/`));
    expect(result.response.body).toMatchObject({ refunds: [{ gateway_transaction_id: 'rf_async' }] });
    s.state = result.state;
    sound(s);
  });

  it('a refund the gateway declines changes nothing', () => {
    const { s, uid, paymentId } = paidByCard();
    const before = s.state;
    const called = withGateway(
      s,
      () => ({ success: false, message: 'No' }),
      'POST',
      `/invoices/${uid}/refunds.json`,
      refund(paymentId, '4'),
    );
    expect(called.status).toBe(422);
    expect(called.state).toBe(before);
  });

  it('refuses more than the payment has left, an unknown payment, and a gateway refund of a check', () => {
    const { s, uid, paymentId } = paidByCheck();
    s.ok('POST', `/invoices/${uid}/refunds.json`, refund(paymentId, '25', { external: true }), 200);
    const over = s.fail(
      'POST',
      `/invoices/${uid}/refunds.json`,
      refund(paymentId, '5.01', { external: true }),
      422,
    );
    expect(JSON.stringify(over)).toContain('5');
    s.fail('POST', `/invoices/${uid}/refunds.json`, refund(paymentId + 999, '1', { external: true }), 422);
    s.fail('POST', `/invoices/${uid}/refunds.json`, refund(paymentId, '1'), 422);
    s.fail('POST', '/invoices/inv_0000000000999/refunds.json', refund(paymentId, '1'), 404);
    sound(s);
  });

  it('voiding a partly refunded invoice moves only what it still holds to prepayments', () => {
    const { s, id, uid, paymentId } = paidByCheck();
    s.ok('POST', `/invoices/${uid}/refunds.json`, refund(paymentId, '10', { external: true }), 200);
    s.ok('POST', `/invoices/${uid}/void.json`, { void: { reason: 'Mistake' } }, 200);
    expect(get(s.ok('GET', `/subscriptions/${id}/account_balances.json`), 'prepayments')).toEqual({
      balance_in_cents: 2000,
    });
    const prepayments = arr(s.ok('GET', `/subscriptions/${id}/prepayments.json`), 'prepayments');
    expect(prepayments).toMatchObject([{ amount_in_cents: 2000, remaining_amount_in_cents: 2000 }]);
    sound(s);
  });
});

describe('credit notes of service credit', () => {
  it('service credit an invoice takes is a credit note applied to it', () => {
    const s = site();
    const sub = remittance(s);
    s.ok('POST', `/subscriptions/${sub.id}/service_credits.json`, { service_credit: { amount: '10' } });
    const uid = str(createAdHoc(s, sub.id, { line_items: [custom('Work', 1, '10')] }), 'uid');
    const paid = s.ok(
      'POST',
      `/invoices/${uid}/payments.json`,
      { type: 'service_credit', payment: { amount: '10', memo: 'From credit' } },
      200,
    );
    const noteUid = str(paid, 'credits', 0, 'credit_note_uid');
    expect(s.ok('GET', `/credit_notes/${noteUid}.json`)).toMatchObject({
      total_amount: '10.00',
      applied_amount: '10.00',
      applications: [{ invoice_uid: uid }],
    });
    s.fail('GET', '/credit_notes/cn_0000000000999.json', undefined, 404);
    sound(s);
  });

  it("a voided invoice's service credit goes back, and its credit note shows nothing applied", () => {
    const s = site();
    const sub = remittance(s);
    s.ok('POST', `/subscriptions/${sub.id}/service_credits.json`, { service_credit: { amount: '4' } });
    const draft = createAdHoc(s, sub.id, { line_items: [custom('Work', 1, '10')], status: 'draft' });
    const uid = str(draft, 'uid');
    const issued = s.ok('POST', `/invoices/${uid}/issue.json`, {}, 200);
    expect(issued).toMatchObject({ credit_amount: '4.00', due_amount: '6.00' });
    const noteUid = str(issued, 'credits', 0, 'credit_note_uid');
    s.ok('POST', `/invoices/${uid}/void.json`, { void: { reason: 'Mistake' } }, 200);
    expect(s.ok('GET', `/credit_notes/${noteUid}.json`)).toMatchObject({
      status: 'open',
      applied_amount: '0.00',
      remaining_amount: '4.00',
      applications: [],
    });
    expect(num(s.subscription(sub.id), 'credit_balance_in_cents')).toBe(400);
    const listed = arr(
      s.ok('GET', `/credit_notes.json?subscription_id=${sub.id}&per_page=1&page=1`),
      'credit_notes',
    );
    expect(listed).toHaveLength(1);
    expect(arr(s.ok('GET', '/credit_notes.json?subscription_id=999'), 'credit_notes')).toEqual([]);
    sound(s);
  });
});
