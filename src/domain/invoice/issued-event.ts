/**
 * The `event_specific_data` of an `invoice_issued` event: the official `InvoiceIssued` shape, whose
 * fields are all required by the SDK (a list of events containing a partial one fails its validation).
 *
 * The log keeps it without `line_items` when the invoice stays in the site for good: an issued invoice's
 * lines never change, so they are read from the invoice when the record is presented rather than held
 * twice (about half a kilobyte a subscription on a site of one-line invoices). The record of an invoice
 * a purge may still remove (one that billed nothing) keeps its own copy.
 */

import { listChunks } from '../../kernel/collection.js';
import { isZero, moneyFormatter, transientMoneyFormatter } from '../../kernel/money.js';
import type { Invoice, InvoiceStatus } from './types.js';

/** The official `InvoiceLineItemEventData`: an issued invoice's line as its event shows it. */
export interface IssuedLineItem {
  readonly uid: string;
  readonly title: string;
  readonly description: string;
  readonly quantity: string;
  readonly unit_price: string;
  readonly period_range_start: string | null;
  readonly period_range_end: string | null;
  readonly amount: string;
  readonly tax_amount: string;
  readonly tax_code: string | null;
  readonly product_id: number | null;
  readonly product_price_point_id: number | null;
  readonly price_point_id: number | null;
  readonly component_id: number | null;
  readonly custom_item: boolean;
}

/** The invoice's lines as its `invoice_issued` event shows them, in order. */
export function issuedLineItems(invoice: Invoice): IssuedLineItem[] {
  // Lines the log keeps share their amount texts with the site's; others are the caller's copy only.
  const logged = !keepsIssuedLines(invoice);
  const amountText = logged ? moneyFormatter(invoice.currency) : transientMoneyFormatter(invoice.currency);
  const taxText = logged ? amountText : transientMoneyFormatter(invoice.currency);
  // Made at its exact length: an array grown by push keeps room for 17 items behind one line, and a
  // copy of exact length cost a renewal of a thousand lines a second array.
  const lineItems: IssuedLineItem[] = new Array(invoice.lines.length);
  let index = 0;
  // Chunk by chunk (a generator step per chunk, not per line): an invoice may have a million lines.
  for (const chunk of listChunks(invoice.lines)) {
    for (const line of chunk) {
      lineItems[index++] = {
        uid: line.uid,
        title: line.title,
        description: line.description,
        quantity: line.quantity,
        unit_price: line.unitPrice,
        period_range_start: line.periodRangeStart,
        period_range_end: line.periodRangeEnd,
        amount: amountText(line.subtotal),
        tax_amount: taxText(line.tax),
        tax_code: line.taxCode,
        product_id: line.productId,
        product_price_point_id: line.productPricePointId,
        price_point_id: line.pricePointId,
        component_id: line.componentId,
        custom_item: line.customItem,
      };
    }
  }
  return lineItems;
}

/**
 * The issued invoice as the event carries it. A date the invoice does not have yet (`paid_date` of an
 * unpaid invoice) is an empty string, as the official models document; `status_amount` is the amount
 * the status is about: what was paid for a paid invoice, what is still due otherwise.
 */
export function invoiceIssuedData(invoice: Invoice) {
  const money = moneyFormatter(invoice.currency);
  const totals = invoice.totals;
  return {
    uid: invoice.uid,
    number: invoice.number,
    role: invoice.role,
    due_date: invoice.dueDate,
    issue_date: invoice.issueDate,
    paid_date: invoice.paidDate ?? '',
    due_amount: money(totals.due),
    paid_amount: money(totals.paid),
    tax_amount: money(totals.tax),
    refund_amount: money(totals.refund),
    total_amount: money(totals.total),
    status_amount: money(invoice.status === 'paid' ? totals.paid : totals.due),
    product_name: invoice.productName,
    consolidation_level: invoice.consolidationLevel,
    line_items: issuedLineItems(invoice),
  };
}

/**
 * Whether the invoice keeps its lines for its `invoice_issued` record: one that billed something (its
 * total, fixed when it is built, is not zero), which no purge removes; a purge takes only invoices of
 * nothing (engine/subscription/purge.ts).
 */
export const keepsIssuedLines = (invoice: Invoice): boolean => !isZero(invoice.totals.total);

/** The data of an `invoice_issued` record as `invoiceIssuedData` makes it. */
export type IssuedInvoiceData = ReturnType<typeof invoiceIssuedData>;

/**
 * What the log keeps of an `invoice_issued` record whose lines are read from the invoice: every field of
 * `invoiceIssuedData` but `line_items` (its very strings, not formatted again), then the status
 * (`status`, or `from_status` and `to_status` when a draft or pending invoice was issued). One literal
 * per form, so that every record of a form shares one hidden class with its fields inside the object.
 */
export function loggedIssuedData(
  issued: IssuedInvoiceData,
  status: InvoiceStatus,
  from?: InvoiceStatus,
): Readonly<Record<string, unknown>> {
  if (from === undefined)
    return {
      uid: issued.uid,
      number: issued.number,
      role: issued.role,
      due_date: issued.due_date,
      issue_date: issued.issue_date,
      paid_date: issued.paid_date,
      due_amount: issued.due_amount,
      paid_amount: issued.paid_amount,
      tax_amount: issued.tax_amount,
      refund_amount: issued.refund_amount,
      total_amount: issued.total_amount,
      status_amount: issued.status_amount,
      product_name: issued.product_name,
      consolidation_level: issued.consolidation_level,
      status,
    };
  return {
    uid: issued.uid,
    number: issued.number,
    role: issued.role,
    due_date: issued.due_date,
    issue_date: issued.issue_date,
    paid_date: issued.paid_date,
    due_amount: issued.due_amount,
    paid_amount: issued.paid_amount,
    tax_amount: issued.tax_amount,
    refund_amount: issued.refund_amount,
    total_amount: issued.total_amount,
    status_amount: issued.status_amount,
    product_name: issued.product_name,
    consolidation_level: issued.consolidation_level,
    from_status: from,
    to_status: status,
  };
}

/**
 * A logged record's data with the lines put back where the official shape has them, after
 * `consolidation_level`: the same keys in the same order as `invoiceIssuedData` with its status fields.
 */
export function withIssuedLines(
  logged: Readonly<Record<string, unknown>>,
  lineItems: readonly IssuedLineItem[],
): Record<string, unknown> {
  const whole: Record<string, unknown> = {};
  for (const key of Object.keys(logged)) {
    whole[key] = logged[key];
    if (key === 'consolidation_level') whole['line_items'] = lineItems;
  }
  return whole;
}
