/**
 * The log keeps an `invoice_issued` record of a billed invoice without its lines and reads them from the
 * invoice when it lists the record. The listing must show every record exactly as it was issued, byte
 * for byte, whatever happened to the invoice since (payments, refunds, voiding, renewals), and a state
 * saved when the log kept every line must load and list the same bytes.
 */
import { describe, expect, it } from 'vitest';
import { type SiteEvent, type SiteState, upgradeState } from '../../../src/index.js';
import { listRange } from '../../../src/kernel/collection.js';
import { num, type Site, site, str } from '../../helpers/api.js';
import { automatic, createAdHoc, custom, remittance } from '../../helpers/invoices.js';

const issuedRecords = (events: readonly SiteEvent[]) => events.filter((e) => e.key === 'invoice_issued');

/** Invoices of every kind of record, each record as its caller got it, then the invoices' later life. */
function history(): { s: Site; issued: Map<number, SiteEvent>; zeroInvoiceUid: string } {
  const s = site();
  const issued = new Map<number, SiteEvent>();
  const keep = (events: readonly SiteEvent[]) => {
    for (const event of issuedRecords(events)) issued.set(event.id, event);
  };
  const product = s.product({ price_in_cents: 4900 });
  const paying = s.customer();
  const profile = s.card(paying);
  keep(
    s.request('POST', '/subscriptions.json', {
      subscription: { product_id: product, customer_id: paying, payment_profile_id: profile },
    }).events,
  );
  const billed = remittance(s);
  const lines = [custom('Work', 3, '12.50'), custom('Travel', '1.5', '8'), custom('Nothing', 1, '0')];
  const adHoc = s.request('POST', `/subscriptions/${billed.id}/invoices.json`, {
    invoice: { line_items: lines },
  });
  keep(adHoc.events);
  const openUid = str(adHoc.body, 'invoice', 'uid');
  const draftUid = str(
    createAdHoc(s, billed.id, { status: 'draft', line_items: [custom('Later', 2, '7')] }),
    'uid',
  );
  keep(s.request('POST', `/invoices/${draftUid}/issue.json`, {}).events);
  const free = automatic(s);
  const zeroInvoiceUid = str(s.invoices(free.id)[0], 'uid');
  // Records of every invoice issued so far are in hand; now the invoices change.
  const paid = s.ok(
    'POST',
    `/invoices/${openUid}/payments.json`,
    { payment: { amount: '20', memo: 'part' } },
    200,
  );
  const paymentId = num(paid, 'payments', 0, 'transaction_id');
  s.ok(
    'POST',
    `/invoices/${openUid}/refunds.json`,
    { refund: { amount: '5', memo: 'back', payment_id: paymentId, external: true } },
    200,
  );
  s.ok('POST', `/invoices/${draftUid}/void.json`, { void: { reason: 'gone' } }, 200);
  keep(s.advance('2026-02-16T00:00:00Z'));
  s.ok('POST', `/subscriptions/${free.id}/purge.json?ack=${free.customer}`, undefined, 200);
  return { s, issued, zeroInvoiceUid };
}

const listing = (state: SiteState): string => {
  const s = site();
  s.state = state;
  return JSON.stringify(s.ok('GET', '/events.json?per_page=200&key=invoice_issued'));
};

describe('invoice_issued records whose lines the invoices keep', () => {
  it('lists every record as its caller got it when the invoice was issued, whatever came after', () => {
    const { s, issued } = history();
    // A signup, an ad hoc invoice of three lines, a draft issued later, a free signup, a renewal.
    expect(issued.size).toBeGreaterThanOrEqual(5);
    const listed = JSON.parse(listing(s.state)) as { event: { id: number; event_specific_data: unknown } }[];
    for (const [id, record] of issued) {
      const shown = listed.find((entry) => entry.event.id === id);
      expect(JSON.stringify(shown?.event.event_specific_data), `record ${id}`).toBe(
        JSON.stringify(record.event_specific_data),
      );
    }
  });

  it('keeps no copy of a billed invoice’s lines, and its own copy where a purge may remove the invoice', () => {
    const { s, zeroInvoiceUid } = history();
    const logged = [...listRange(s.state.events)].filter((event) => event.key === 'invoice_issued');
    const withLines = logged.filter((event) => Object.hasOwn(event.event_specific_data ?? {}, 'line_items'));
    // The free subscription's signup and renewal invoices: nothing billed, so a purge could take them.
    expect(withLines.map((event) => event.event_specific_data?.['uid'])).toContain(zeroInvoiceUid);
    for (const event of withLines) expect(event.event_specific_data?.['total_amount']).toBe('0.00');
    for (const event of logged)
      if (!withLines.includes(event)) expect(event.event_specific_data?.['total_amount']).not.toBe('0.00');
    expect(logged.length - withLines.length).toBeGreaterThanOrEqual(4);
  });

  it('a state saved when the log kept every line loads and lists the same bytes', () => {
    const { s, issued } = history();
    const saved = JSON.parse(JSON.stringify(s.state)) as { events: { chunks: SiteEvent[][] } };
    // What an earlier version kept: every record whole, as its caller got it.
    let replaced = 0;
    for (const chunk of saved.events.chunks)
      chunk.forEach((event, at) => {
        const whole = issued.get(event.id);
        if (whole === undefined) return;
        chunk[at] = { ...event, event_specific_data: JSON.parse(JSON.stringify(whole.event_specific_data)) };
        replaced += 1;
      });
    expect(replaced).toBe(issued.size);
    const older = upgradeState(saved as unknown as SiteState);
    expect(listing(older)).toBe(listing(s.state));
  });
});
