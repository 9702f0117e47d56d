/**
 * Invariant checks a user runs in property tests: each returns the list of violations (empty when the
 * invariant holds), so a test can assert `expect(checkInvoice(invoice)).toEqual([])` and see what broke.
 */

import type { SiteEvent } from '../domain/event-log/types.js';
import type { Invoice } from '../domain/invoice/types.js';
import type { SiteState } from '../engine/state.js';
import { listRange, tableGet, tableRows } from '../kernel/collection.js';
import { idOfUid } from '../kernel/ids.js';
import { add, cmp, isNegative, sub, sum } from '../kernel/money.js';
import { checkCustomFields } from './custom-field-invariants.js';
import { checkExports } from './export-invariants.js';
import { checkLedger } from './ledger-invariants.js';
import { checkBalances, checkGroups, checkTransitions } from './state-invariants.js';

/**
 * The invoice's identities: every line's total is subtotal − discount + tax and never negative; the
 * invoice totals are the sums of the lines; total = subtotal − discount + tax; due = total − credit −
 * paid; every discount's and tax's breakouts add up to it.
 * @example expect(checkInvoice(invoice)).toEqual([])
 */
export function checkInvoice(invoice: Invoice): string[] {
  const violations: string[] = [];
  const subtotals: string[] = [];
  const discounts: string[] = [];
  const taxes: string[] = [];
  for (const line of listRange(invoice.lines)) {
    subtotals.push(line.subtotal);
    discounts.push(line.discount);
    taxes.push(line.tax);
    if (cmp(line.total, add(sub(line.subtotal, line.discount), line.tax)) !== 0)
      violations.push(`line ${line.uid}: total ${line.total} is not subtotal − discount + tax`);
    if (isNegative(line.total) || isNegative(sub(line.subtotal, line.discount)))
      violations.push(`line ${line.uid}: negative amount`);
  }
  const totals = invoice.totals;
  if (cmp(totals.subtotal, sum(subtotals)) !== 0)
    violations.push(`subtotal ${totals.subtotal} is not the sum of the lines ${sum(subtotals)}`);
  if (cmp(totals.discount, sum(discounts)) !== 0)
    violations.push(`discount ${totals.discount} is not the sum of the lines ${sum(discounts)}`);
  if (cmp(totals.tax, sum(taxes)) !== 0)
    violations.push(`tax ${totals.tax} is not the sum of the lines ${sum(taxes)}`);
  if (cmp(totals.total, add(sub(totals.subtotal, totals.discount), totals.tax)) !== 0)
    violations.push('total is not subtotal − discount + tax');
  if (
    invoice.status !== 'voided' &&
    cmp(totals.due, add(sub(sub(totals.total, totals.credit), totals.paid), totals.refund)) !== 0
  )
    violations.push('due is not total − credit − paid + refund');
  for (const discount of invoice.discounts) {
    const parts = sum(discount.breakouts.map((breakout) => breakout.discount_amount));
    if (cmp(parts, discount.discountAmount) !== 0)
      violations.push(
        `discount ${discount.code}: breakouts add up to ${parts}, not ${discount.discountAmount}`,
      );
  }
  for (const tax of invoice.taxes) {
    const parts = sum(tax.breakouts.map((breakout) => breakout.tax_amount));
    if (cmp(parts, tax.taxAmount) !== 0)
      violations.push(`tax ${tax.title}: breakouts add up to ${parts}, not ${tax.taxAmount}`);
  }
  return violations.map((violation) => `invoice ${invoice.uid}: ${violation}`);
}

/** An `invoice_issued` record the log keeps without lines must name an invoice that still has them. */
function issuedLinesFound(state: SiteState, event: SiteEvent): string[] {
  const data = event.event_specific_data;
  if (event.key !== 'invoice_issued' || data === null || Object.hasOwn(data, 'line_items')) return [];
  const uid = data['uid'];
  const id = typeof uid === 'string' ? idOfUid('inv', uid) : undefined;
  const invoice = id === undefined ? undefined : tableGet(state.tables.invoices, id);
  return invoice === undefined || invoice.status === 'draft'
    ? [`event ${event.id}: invoice_issued without lines names ${String(uid)}, which the site lacks`]
    : [];
}

/**
 * Every invariant of a site: every invoice satisfies `checkInvoice`; balances equal the sums of their
 * entries (`checkBalances`); the books balance and agree with the rows (`checkLedger`); group membership is a partition (`checkGroups`); every subscription state
 * change is allowed by the transition table (`checkTransitions`); custom fields hold together
 * (`checkCustomFields`), and so do export batches (`checkExports`); event ids run 1, 2, 3, ...; an
 * `invoice_issued` record kept without its lines names an invoice of the site.
 * @example expect(checkState(state)).toEqual([])
 */
export function checkState(state: SiteState): string[] {
  const violations: string[] = [
    ...checkBalances(state),
    ...checkLedger(state),
    ...checkGroups(state),
    ...checkTransitions(state),
    ...checkCustomFields(state),
    ...checkExports(state),
  ];
  for (const invoice of tableRows(state.tables.invoices)) violations.push(...checkInvoice(invoice));
  let expectedId = 1;
  for (const event of listRange(state.events)) {
    if (event.id !== expectedId) violations.push(`event at position ${expectedId} has id ${event.id}`);
    expectedId += 1;
    violations.push(...issuedLinesFound(state, event));
  }
  return violations;
}
