/**
 * `GET /invoices/events.json`: invoice events read from the invoices and their credit notes (issued,
 * payments applied, failed and taken off, credit notes created and applied, refunds, voids, status
 * changes), and the path is never an invoice uid.
 */
import { describe, expect, it } from 'vitest';
import { arr, get, num, site, str } from '../../helpers/api.js';
import { automatic, createAdHoc, custom, prepay, remittance, serviceCredit } from '../../helpers/invoices.js';

function paidAndRefunded() {
  const s = site();
  const sub = remittance(s, {}, { product_id: s.product({ price_in_cents: 0 }) });
  const uid = str(createAdHoc(s, sub.id, { line_items: [custom('Work', 3, '10')] }), 'uid');
  s.at('2026-01-16T12:00:00Z');
  const paid = s.ok(
    'POST',
    `/invoices/${uid}/payments.json`,
    { payment: { amount: '30', memo: 'Check' } },
    200,
  );
  const paymentId = num(paid, 'payments', 0, 'transaction_id');
  s.at('2026-01-17T12:00:00Z');
  s.ok(
    'POST',
    `/invoices/${uid}/refunds.json`,
    { refund: { amount: '5', memo: 'Sorry', payment_id: paymentId, external: true } },
    200,
  );
  return { s, ...sub, uid, paymentId };
}

const types = (body: unknown) => arr(body, 'events').map((event) => get(event, 'event_type'));

describe('invoice events', () => {
  it('answers the events listing, not "Invoice not found"', () => {
    const { s, uid, paymentId } = paidAndRefunded();
    // The free signup invoice was issued too, first.
    const body = s.ok('GET', '/invoices/events.json');
    expect(types(body)).toEqual([
      'issue_invoice',
      'issue_invoice',
      'apply_payment',
      'refund_invoice',
      'create_credit_note',
    ]);
    expect(body).toMatchObject({ page: 1, per_page: 100, total_pages: 1 });
    expect(arr(body, 'events')[4]).toMatchObject({
      invoice: { uid },
      event_data: { total_amount: '5.00', refunds: [{ applied_amount: '5.00' }] },
    });
    expect(arr(body, 'events')[3]).toMatchObject({
      id: 4,
      invoice: { uid },
      event_data: { payment_id: paymentId, refund_amount: '5.00', apply_credit: false },
    });
  });

  it('filters by invoice, type, since_id and since_date, and pages', () => {
    const { s, uid } = paidAndRefunded();
    expect(types(s.ok('GET', `/invoices/events.json?invoice_uid=${uid}&event_types=apply_payment`))).toEqual([
      'apply_payment',
    ]);
    expect(types(s.ok('GET', '/invoices/events.json?since_id=3'))).toEqual([
      'refund_invoice',
      'create_credit_note',
    ]);
    expect(types(s.ok('GET', '/invoices/events.json?since_date=2026-01-16'))).toEqual([
      'apply_payment',
      'refund_invoice',
      'create_credit_note',
    ]);
    const second = s.ok('GET', '/invoices/events.json?page=2&per_page=3');
    expect(types(second)).toEqual(['refund_invoice', 'create_credit_note']);
    expect(second).toMatchObject({ total_pages: 2 });
    s.fail('GET', '/invoices/events.json?event_types=nonsense', undefined, 422);
  });

  it('shows status changes only when asked', () => {
    const { s, id, uid } = paidAndRefunded();
    s.ok('DELETE', `/subscriptions/${id}.json`, undefined, 200);
    expect(types(s.ok('GET', `/invoices/events.json?invoice_uid=${uid}`))).not.toContain(
      'change_invoice_status',
    );
    expect(
      types(s.ok('GET', `/invoices/events.json?invoice_uid=${uid}&with_change_invoice_status=true`)),
    ).toContain('change_invoice_status');
  });

  it('tells of a declined payment, of prepayments taken off a voided invoice, and of service credit notes', () => {
    const s = site();
    const { id } = automatic(s, 2);
    serviceCredit(s, id, '5');
    prepay(s, id, '10');
    const uid = str(createAdHoc(s, id, { status: 'draft', line_items: [custom('Work', 1, '30')] }), 'uid');
    s.at('2026-01-16T12:00:00Z');
    s.ok('POST', `/invoices/${uid}/issue.json`, {}, 200);
    s.at('2026-01-17T12:00:00Z');
    s.ok('POST', `/invoices/${uid}/void.json`, { void: { reason: 'Mistake' } }, 200);
    const body = s.ok('GET', `/invoices/events.json?invoice_uid=${uid}`);
    expect(types(body)).toEqual([
      'issue_invoice',
      'apply_credit_note',
      'apply_payment',
      'failed_payment',
      'create_credit_note',
      'remove_payment',
      'void_invoice',
    ]);
    const events = arr(body, 'events');
    expect(events[3]).toMatchObject({
      event_data: { amount_in_cents: 1500, applied_amount: 0, payment_method: 'credit_card' },
    });
    expect(num(events[3], 'event_data', 'transaction_id')).toBeGreaterThan(0);
    expect(events[5]).toMatchObject({
      timestamp: '2026-01-17T12:00:00Z',
      event_data: { applied_amount: '10.00', prepayment: true, transaction_time: '2026-01-17T12:00:00Z' },
    });
    expect(types(s.ok('GET', '/invoices/events.json?event_types=failed_payment,remove_payment'))).toEqual([
      'failed_payment',
      'remove_payment',
    ]);
  });
});
