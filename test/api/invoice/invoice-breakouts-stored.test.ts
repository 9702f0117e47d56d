/**
 * Breakouts are stored as the API presents them, frozen, and answered as they are; a state read back
 * from JSON (whose objects a host could change) answers copies; a snapshot with breakouts stored in the
 * earlier shape loads them renamed and presents them the same.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readSnapshot, writeSnapshot } from '../../../src/cli/snapshot.js';
import type { Invoice } from '../../../src/domain/invoice/types.js';
import type { SiteState } from '../../../src/engine/state.js';
import { tableReplace, tableRows } from '../../../src/kernel/collection.js';
import { arr, call, get, site, str } from '../../helpers/api.js';
import { createAdHoc, custom, remittance, stored } from '../../helpers/invoices.js';

/** A site with a tax and an ad hoc invoice with two coupons over taxable and exempt lines. */
function invoiced() {
  const s = site({ taxes: [{ name: 'State', percentage: '8.875' }] });
  const { id } = remittance(s);
  const invoice = createAdHoc(s, id, {
    line_items: [
      custom('A', 3, '10.5'),
      custom('B', 1, '0.335', { taxable: false }),
      custom('C', '2.5', '7', { taxable: true }),
    ],
    coupons: [
      { code: 'TEN', percentage: '10' },
      { code: 'FLAT', amount: '2' },
    ],
  });
  const uid = str(invoice, 'uid');
  return { s, id, uid, path: `/invoices/${uid}.json` };
}

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'billing-core-breakouts-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('stored breakouts', () => {
  it('are kept as presented and frozen, and a response carries them as they are', () => {
    const { s, uid, path } = invoiced();
    const invoice = stored(s.state, uid);
    for (const { breakouts } of [...invoice.discounts, ...invoice.taxes]) {
      expect(Object.isFrozen(breakouts)).toBe(true);
      for (const part of breakouts) expect(Object.isFrozen(part)).toBe(true);
    }
    expect(invoice.discounts[0]!.breakouts[0]).toEqual({
      uid: invoice.discounts[0]!.breakouts[0]!.uid,
      eligible_amount: '31.50',
      discount_amount: '3.15',
    });
    const answered = s.ok('GET', path);
    expect(get(answered, 'discounts', 0, 'line_item_breakouts')).toBe(invoice.discounts[0]!.breakouts);
    expect(get(answered, 'taxes', 0, 'line_item_breakouts')).toBe(invoice.taxes[0]!.breakouts);
  });

  it('read back from JSON, answer the same amounts in copies that leave the state as it was', () => {
    const { s, uid, path } = invoiced();
    const before = s.ok('GET', path);
    const reloaded = JSON.parse(JSON.stringify(s.state)) as SiteState;
    const answered = call(reloaded, 'GET', path).body;
    expect(answered).toEqual(before);
    const copy = arr(answered, 'discounts', 0, 'line_item_breakouts')[0] as Record<string, unknown>;
    copy['discount_amount'] = '999.00';
    expect(stored(reloaded, uid).discounts[0]!.breakouts[0]!.discount_amount).toBe('3.15');
  });

  it('stored in the earlier shape, load from a snapshot renamed and present the same', async () => {
    const { s, uid, path } = invoiced();
    const before = s.ok('GET', path);
    // The earlier shape: camel-case names and canonical amounts ('3.15', '0').
    const canonical = (value: string): string => value.replace(/\.?0+$/, '') || '0';
    const old = (invoice: Invoice) => ({
      ...invoice,
      discounts: invoice.discounts.map((discount) => ({
        ...discount,
        breakouts: discount.breakouts.map((part) => ({
          uid: part.uid,
          eligibleAmount: canonical(part.eligible_amount),
          discountAmount: canonical(part.discount_amount),
        })),
      })),
      taxes: invoice.taxes.map((tax) => ({
        ...tax,
        breakouts: tax.breakouts.map((part) => ({
          uid: part.uid,
          taxableAmount: canonical(part.taxable_amount),
          taxAmount: canonical(part.tax_amount),
          taxExemptAmount: canonical(part.tax_exempt_amount),
        })),
      })),
    });
    let invoices = s.state.tables.invoices;
    for (const invoice of tableRows(s.state.tables.invoices))
      invoices = tableReplace(invoices, invoice.id, old(invoice) as unknown as Invoice);
    const earlier = { ...s.state, tables: { ...s.state.tables, invoices } };
    await writeSnapshot(dir, { position: 1, state: earlier });
    const read = await readSnapshot(dir);
    if (!read.ok || read.value === undefined) throw new Error('no snapshot');
    expect(call(read.value.state, 'GET', path).body).toEqual(before);
    expect(Reflect.has(stored(read.value.state, uid).discounts[0]!.breakouts[0]!, 'discountAmount')).toBe(
      false,
    );
  });
});
