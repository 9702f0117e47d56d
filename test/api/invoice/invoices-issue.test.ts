/** Issue an invoice (SPEC 2.3, 3): every row of the invoice table, balances applied first, the email. */
import { describe, expect, it } from 'vitest';
import { emailOutbox, type SiteConfig } from '../../../src/index.js';
import { get, type Site, site, str } from '../../helpers/api.js';
import {
  automatic,
  balances,
  createAdHoc,
  custom,
  expectIdentities,
  historyKinds,
  issue,
  prepay,
  remittance,
  serviceCredit,
  stored,
} from '../../helpers/invoices.js';

const keys = (events: readonly { key: string }[]) => events.map((event) => event.key);
const invoiceEmails = (s: Site) => emailOutbox(s.state).filter((email) => email.kind === 'invoice');
const draftOf = (s: Site, id: number, price = '30') =>
  str(createAdHoc(s, id, { status: 'draft', line_items: [custom('Work', 1, price)] }), 'uid');

/** A subscription with $5 of service credit and $10 of prepayment, and a $30 draft. */
function funded(kind: 'remittance' | 1 | 2, config: SiteConfig = {}) {
  const s = site(config);
  const sub = kind === 'remittance' ? remittance(s) : automatic(s, kind);
  serviceCredit(s, sub.id, '5');
  prepay(s, sub.id, '10');
  expect(balances(s, sub.id)).toEqual({ credit: 500, prepayment: 1000 });
  return { s, ...sub, uid: draftOf(s, sub.id) };
}

describe('issue: remittance', () => {
  it('opens the invoice without a payment; credits and prepayments are applied; the customer is emailed', () => {
    const { s, id, uid } = funded('remittance');
    const issued = s.request('POST', `/invoices/${uid}/issue.json`);
    expect(issued.status).toBe(200);
    expect(issued.body).toMatchObject({
      uid,
      status: 'open',
      total_amount: '30.00',
      credit_amount: '5.00',
      paid_amount: '10.00',
      due_amount: '15.00',
      credits: [{ applied_amount: '5.00' }],
      payments: [{ applied_amount: '10.00', prepayment: true }],
    });
    expectIdentities(issued.body);
    expect(keys(issued.events)).toEqual(['invoice_issued']);
    expect(balances(s, id)).toEqual({ credit: 0, prepayment: 0 });
    expect(invoiceEmails(s)).toMatchObject([
      { to: get(issued.body, 'customer', 'email'), subscriptionId: id },
    ]);
  });

  it.each(['leave_open_invoice', 'rollback_to_pending', 'initiate_dunning'])(
    'refuses on_failed_payment %s (422, nothing changes)',
    (action) => {
      const { s, uid } = funded('remittance');
      s.fail('POST', `/invoices/${uid}/issue.json`, { on_failed_payment: action }, 422);
      expect(stored(s.state, uid).status).toBe('draft');
    },
  );

  it('records no email when the site setting is off', () => {
    const { s, uid } = funded('remittance', { invoiceEmails: false });
    expect(issue(s, uid)).toMatchObject({ status: 'open' });
    expect(invoiceEmails(s)).toEqual([]);
  });

  it('records invoice_issued with every field of the official InvoiceIssued data', () => {
    const { s, uid } = funded('remittance');
    const issued = s.request('POST', `/invoices/${uid}/issue.json`);
    const data = issued.events.find((event) => event.key === 'invoice_issued')?.event_specific_data;
    // The official SDK requires every one of these; a date the invoice lacks is an empty string.
    expect(data).toEqual({
      uid,
      number: get(issued.body, 'number'),
      role: 'adhoc',
      due_date: get(issued.body, 'due_date'),
      issue_date: get(issued.body, 'issue_date'),
      paid_date: '',
      due_amount: '15.00',
      paid_amount: '10.00',
      tax_amount: '0.00',
      refund_amount: '0.00',
      total_amount: '30.00',
      status_amount: '15.00',
      product_name: get(issued.body, 'product_name'),
      consolidation_level: 'none',
      line_items: [
        expect.objectContaining({ title: 'Work', quantity: '1', unit_price: '30', amount: '30.00' }),
      ],
      from_status: 'draft',
      to_status: 'open',
    });
  });
});

describe('issue: automatic collection', () => {
  it('a card that pays (ending 1): paid after credits and prepayments, the card charged the rest', () => {
    const { s, id, uid } = funded(1);
    const issued = s.request('POST', `/invoices/${uid}/issue.json`, {});
    expect(issued.body).toMatchObject({
      status: 'paid',
      paid_date: '2026-01-15',
      credit_amount: '5.00',
      paid_amount: '25.00',
      due_amount: '0.00',
      payments: [
        { applied_amount: '10.00', prepayment: true },
        {
          applied_amount: '15.00',
          prepayment: false,
          payment_method: { type: 'credit_card', last_four: '1111' },
        },
      ],
    });
    expectIdentities(issued.body);
    expect(keys(issued.events)).toEqual(['payment_success', 'invoice_issued']);
    expect(balances(s, id)).toEqual({ credit: 0, prepayment: 0 });
    expect(invoiceEmails(s)).toHaveLength(1);
  });

  it('balances that cover the invoice pay it without charging the card, even one that fails', () => {
    const s = site();
    const { id } = automatic(s, 2);
    serviceCredit(s, id, '20');
    prepay(s, id, '20');
    const issued = s.request('POST', `/invoices/${draftOf(s, id)}/issue.json`);
    expect(issued.body).toMatchObject({
      status: 'paid',
      credit_amount: '20.00',
      paid_amount: '10.00',
      due_amount: '0.00',
    });
    expect(keys(issued.events)).not.toContain('payment_failure');
    expect(balances(s, id)).toEqual({ credit: 0, prepayment: 1000 });
  });

  it('a failing card (ending 2), default leave_open_invoice: open, balances applied, failure in history, email', () => {
    const { s, id, uid } = funded(2);
    const issued = s.request('POST', `/invoices/${uid}/issue.json`);
    expect(issued.status).toBe(200);
    expect(issued.body).toMatchObject({
      status: 'open',
      credit_amount: '5.00',
      paid_amount: '10.00',
      due_amount: '15.00',
    });
    expect(keys(issued.events)).toEqual(['payment_failure', 'invoice_issued']);
    expect(historyKinds(s.state, uid)).toEqual(expect.arrayContaining(['issued', 'payment_failed']));
    expect(balances(s, id)).toEqual({ credit: 0, prepayment: 0 });
    expect(s.subscription(id)).toMatchObject({ state: 'active' });
    expect(invoiceEmails(s)).toHaveLength(1);
    const explicit = funded(2);
    expect(issue(explicit.s, explicit.uid, { on_failed_payment: 'leave_open_invoice' })).toMatchObject({
      status: 'open',
    });
  });

  it('rollback_to_pending: pending, nothing applied, no email, failure in history; it can be issued again', () => {
    const { s, id, uid } = funded(2);
    const issued = s.request('POST', `/invoices/${uid}/issue.json`, {
      on_failed_payment: 'rollback_to_pending',
    });
    expect(issued.body).toMatchObject({
      status: 'pending',
      credit_amount: '0.00',
      paid_amount: '0.00',
      due_amount: '30.00',
      credits: [],
      payments: [],
    });
    expect(keys(issued.events)).toContain('payment_failure');
    expect(historyKinds(s.state, uid)).toContain('payment_failed');
    expect(balances(s, id)).toEqual({ credit: 500, prepayment: 1000 });
    expect(invoiceEmails(s)).toEqual([]);
    expect(s.subscription(id)).toMatchObject({ state: 'active' });
    expect(issue(s, uid)).toMatchObject({ status: 'open', due_amount: '15.00' });
    expect(balances(s, id)).toEqual({ credit: 0, prepayment: 0 });
  });

  it('initiate_dunning: open, balances applied, email, and the subscription becomes past_due', () => {
    const { s, id, uid } = funded(2);
    const issued = s.request('POST', `/invoices/${uid}/issue.json`, {
      on_failed_payment: 'initiate_dunning',
    });
    expect(issued.body).toMatchObject({ status: 'open', due_amount: '15.00' });
    expect(keys(issued.events)).toEqual(['payment_failure', 'invoice_issued', 'subscription_state_change']);
    expect(historyKinds(s.state, uid)).toContain('payment_failed');
    expect(s.subscription(id)).toMatchObject({
      state: 'past_due',
      credit_balance_in_cents: 0,
      prepayment_balance_in_cents: 0,
    });
    expect(invoiceEmails(s)).toHaveLength(1);
  });

  it('dunning started by initiate_dunning retries the invoice; voided, the next retry ends dunning', () => {
    const { s, id, uid } = funded(2);
    issue(s, uid, { on_failed_payment: 'initiate_dunning' });
    expect(keys(s.advance('2026-01-18T12:00:00Z'))).toEqual(['payment_failure']);
    expect(s.subscription(id)).toMatchObject({ state: 'past_due' });
    s.ok('POST', `/invoices/${uid}/void.json`, { void: { reason: 'Forgiven' } }, 200);
    expect(keys(s.advance('2026-01-22T12:00:00Z'))).toEqual(['subscription_state_change']);
    expect(s.subscription(id)).toMatchObject({ state: 'active' });
  });

  it('dates the payment in the site zone', () => {
    const s = site({ timeZone: 'Pacific/Apia' });
    const { id } = automatic(s, 1);
    expect(issue(s, draftOf(s, id))).toMatchObject({
      status: 'paid',
      issue_date: '2026-01-16',
      paid_date: '2026-01-16',
    });
  });

  it('issues a pending invoice like a draft', () => {
    const { s, uid } = funded(2);
    issue(s, uid, { on_failed_payment: 'rollback_to_pending' });
    expect(issue(s, uid, { on_failed_payment: 'rollback_to_pending' })).toMatchObject({ status: 'pending' });
    expect(issue(s, uid, { on_failed_payment: 'initiate_dunning' })).toMatchObject({ status: 'open' });
  });
});

describe('issue: refusals', () => {
  it('refuses an open or paid invoice (422) and answers 404 for an unknown uid', () => {
    const s = site();
    const { id } = automatic(s, 1);
    const open = str(createAdHoc(s, id, { line_items: [custom('A', 1, '1')] }), 'uid');
    s.fail('POST', `/invoices/${open}/issue.json`, {}, 422);
    const paid = draftOf(s, id);
    expect(issue(s, paid)).toMatchObject({ status: 'paid' });
    s.fail('POST', `/invoices/${paid}/issue.json`, {}, 422);
    s.fail('POST', '/invoices/inv_00000000000zz/issue.json', {}, 404);
  });

  it('refuses an unknown on_failed_payment value (422)', () => {
    const s = site();
    const { id } = automatic(s, 2);
    s.fail('POST', `/invoices/${draftOf(s, id)}/issue.json`, { on_failed_payment: 'shrug' }, 422);
  });
});
