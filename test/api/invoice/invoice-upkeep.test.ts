/** Reopening a canceled invoice, sending an invoice, refreshing its customer information. */
import { describe, expect, it } from 'vitest';
import { emailOutbox } from '../../../src/index.js';
import { checkState } from '../../../src/testing/index.js';
import { get, type Site, site, str } from '../../helpers/api.js';
import { historyKinds, remittance } from '../../helpers/invoices.js';

/** A remittance subscription whose $10 signup invoice is still open. */
function openSignup() {
  const s = site();
  const sub = remittance(s, { address: '1 Main St', city: 'Springfield', country: 'US' });
  const uid = str(s.invoices(sub.id)[0], 'uid');
  return { s, ...sub, uid };
}

const sound = (s: Site) => expect(checkState(s.state)).toEqual([]);

describe('reopening an invoice', () => {
  it('a canceled invoice is owed again, and can then be paid', () => {
    const { s, id, uid } = openSignup();
    s.ok('DELETE', `/subscriptions/${id}.json`, undefined, 200);
    expect(get(s.ok('GET', `/invoices/${uid}.json`), 'status')).toBe('canceled');
    const reopened = s.ok('POST', `/invoices/${uid}/reopen.json`, undefined, 200);
    expect(reopened).toMatchObject({ uid, status: 'open', due_amount: '10.00' });
    expect(historyKinds(s.state, uid)).toContain('reopened');
    s.ok('POST', `/invoices/${uid}/payments.json`, { payment: { amount: '10' } }, 200);
    sound(s);
  });

  it('refuses an invoice that is not canceled, and an unknown one', () => {
    const { s, uid } = openSignup();
    s.fail('POST', `/invoices/${uid}/reopen.json`, undefined, 422);
    s.fail('POST', '/invoices/inv_0000000000999/reopen.json', undefined, 404);
  });
});

describe('sending an invoice', () => {
  it('records one email in the outbox, to the first recipient with the others copied (204)', () => {
    const { s, uid } = openSignup();
    const before = emailOutbox(s.state).length;
    const called = s.request('POST', `/invoices/${uid}/deliveries.json`, {
      recipient_emails: ['a@example.com', 'b@example.com'],
      cc_recipient_emails: ['c@example.com'],
      bcc_recipient_emails: ['d@example.com'],
    });
    expect(called.status).toBe(204);
    const sent = emailOutbox(s.state).slice(before);
    expect(sent).toMatchObject([
      {
        kind: 'invoice',
        to: 'a@example.com',
        cc: ['b@example.com', 'c@example.com'],
        bcc: ['d@example.com'],
      },
    ]);
    expect(historyKinds(s.state, uid).at(-1)).toBe('email_sent');
  });

  it("goes to the customer's address when no recipient is given, and refuses a bad address", () => {
    const { s, uid } = openSignup();
    s.ok('POST', `/invoices/${uid}/deliveries.json`, {}, 204);
    expect(emailOutbox(s.state).at(-1)?.to).toMatch(/@example\.com$/);
    s.fail('POST', `/invoices/${uid}/deliveries.json`, { recipient_emails: ['not an address'] }, 422);
  });
});

describe('customer information on an invoice', () => {
  it('previews what would change, then takes the customer record', () => {
    const { s, customer, uid } = openSignup();
    const unchanged = s.ok('POST', `/invoices/${uid}/customer_information/preview.json`, undefined, 200);
    expect(unchanged).toEqual({
      changes: { payer: null, shipping_address: null, billing_address: null, custom_fields: null },
    });
    s.ok('PUT', `/customers/${customer}.json`, { customer: { last_name: 'Byron', city: 'London' } }, 200);
    const preview = s.ok('POST', `/invoices/${uid}/customer_information/preview.json`, undefined, 200);
    expect(preview).toMatchObject({
      changes: {
        payer: { before: { first_name: 'Ada' }, after: { last_name: 'Byron' } },
        billing_address: { before: { city: 'Springfield' }, after: { city: 'London' } },
        shipping_address: { after: { city: 'London' } },
      },
    });
    const updated = s.ok('PUT', `/invoices/${uid}/customer_information.json`, undefined, 200);
    expect(updated).toMatchObject({
      customer: { last_name: 'Byron' },
      billing_address: { city: 'London' },
      total_amount: '10.00',
    });
    expect(s.ok('POST', `/invoices/${uid}/customer_information/preview.json`, undefined, 200)).toEqual(
      unchanged,
    );
    sound(s);
  });
});
