/**
 * The renewal preview equals the renewal that time then commits, with and without an advance invoice
 * covering the period: a covered period previews only what its renewal still bills (metered and
 * event-based usage of the period that ends, allocation changes since the advance invoice, what the
 * advance invoice left of an amount coupon).
 */
import { describe, expect, it } from 'vitest';
import { get } from '../../helpers/api.js';
import {
  allocate,
  BEFORE_RENEWAL,
  invoiceLineCents,
  issueAdvance,
  MIDDLE,
  type PreviewSite,
  previewLineCents,
  previewSite,
  previewTotals,
  renew,
  renewalPreview,
  summed,
  use,
} from '../invoice/proforma-fixtures.js';

const USAGE = { seats: 4, support: true, calls: 150, credits: 3, requests: 6 };

/** Previews now, lets the renewal happen and expects the preview to be what it billed; returns the preview. */
function expectPreviewCommitted(f: PreviewSite): unknown {
  const previewed = renewalPreview(f);
  const billed = renew(f);
  expect(previewTotals(previewed)).toEqual(summed(billed));
  expect(previewLineCents(previewed)).toEqual(invoiceLineCents(billed));
  return previewed;
}

describe('renewal preview equals the committed renewal', () => {
  it('without an advance invoice: product, every component kind and the usage so far', () => {
    const f = previewSite({ coupon: { percentage: '10' } });
    f.s.at(MIDDLE);
    use(f, USAGE);
    const previewed = expectPreviewCommitted(f);
    expect(get(previewed, 'subtotal_in_cents')).toBe(4882);
  });

  it('with an advance invoice: only the usage billed in arrears', () => {
    const f = previewSite({ coupon: { percentage: '10' } });
    f.s.at(MIDDLE);
    use(f, USAGE);
    issueAdvance(f);
    const previewed = expectPreviewCommitted(f);
    expect(previewLineCents(previewed)).toEqual([
      [f.calls, 150],
      [f.requests, 300],
    ]);
    expect(get(previewed, 'next_assessment_at')).toBe('2026-02-15T12:00:00Z');
  });

  it('with an advance invoice and more seats since: the difference is previewed and billed', () => {
    const f = previewSite();
    f.s.at(MIDDLE);
    use(f, { ...USAGE, calls: 0, requests: 0 });
    issueAdvance(f);
    f.s.at(BEFORE_RENEWAL);
    allocate(f, f.seats, 7);
    const previewed = expectPreviewCommitted(f);
    expect(previewLineCents(previewed)).toEqual([[f.seats, 3 * 333]]);
  });

  it('with an advance invoice and fewer seats since: nothing billed (the difference becomes credit)', () => {
    const f = previewSite();
    f.s.at(MIDDLE);
    use(f, { ...USAGE, calls: 20 });
    issueAdvance(f);
    f.s.at(BEFORE_RENEWAL);
    allocate(f, f.seats, 1);
    const previewed = expectPreviewCommitted(f);
    expect(previewLineCents(previewed)).toEqual([
      [f.calls, 20],
      [f.requests, 300],
    ]);
  });

  it('with an advance invoice that used part of an amount coupon: the rest discounts the arrears', () => {
    const f = previewSite({ coupon: { amount_in_cents: 4500 } });
    f.s.at(MIDDLE);
    use(f, { ...USAGE, calls: 400 });
    issueAdvance(f);
    const previewed = expectPreviewCommitted(f);
    // The advance invoice billed 44.32 of the $45 coupon; 0.68 is left for the $7 of arrears.
    expect(get(previewed, 'total_discount_in_cents')).toBe(68);
  });

  it('with an advance invoice and nothing left to bill: a preview of 0 and no renewal invoice', () => {
    const f = previewSite();
    f.s.at(MIDDLE);
    use(f, { ...USAGE, calls: 0, requests: 0 });
    issueAdvance(f);
    const previewed = expectPreviewCommitted(f);
    expect(previewed).toMatchObject({ line_items: [], total_in_cents: 0 });
  });

  it('with an advance invoice and custom quantities: the covered renewal at those quantities', () => {
    const f = previewSite();
    f.s.at(MIDDLE);
    use(f, USAGE);
    issueAdvance(f);
    const custom = get(
      f.s.ok(
        'POST',
        `/subscriptions/${f.id}/renewals/preview.json`,
        {
          components: [{ component_id: f.seats, quantity: 9 }],
        },
        200,
      ),
      'renewal_preview',
    );
    f.s.at(BEFORE_RENEWAL);
    allocate(f, f.seats, 9);
    const billed = renew(f);
    expect(previewTotals(custom)).toEqual(summed(billed));
    expect(previewLineCents(custom)).toEqual(invoiceLineCents(billed));
  });

  it('after a voided advance invoice: the full renewal again', () => {
    const f = previewSite({ remittance: true });
    f.s.at(MIDDLE);
    use(f, USAGE);
    issueAdvance(f);
    f.s.ok(
      'POST',
      `/subscriptions/${f.id}/advance_invoice/void.json`,
      {
        void: { reason: 'Too early' },
      },
      200,
    );
    const previewed = expectPreviewCommitted(f);
    expect(get(previewed, 'subtotal_in_cents')).toBe(4882);
  });
});
