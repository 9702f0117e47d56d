/** The `invoice_issued` record every issued invoice leaves in the event log (docs/events.md). */

import {
  invoiceIssuedData,
  issuedLineItems,
  keepsIssuedLines,
  loggedIssuedData,
  withIssuedLines,
} from '../../domain/invoice/issued-event.js';
import type { Invoice, InvoiceStatus } from '../../domain/invoice/types.js';
import { tableGet } from '../../kernel/collection.js';
import { idOfUid } from '../../kernel/ids.js';
import type { SiteState } from '../state.js';
import type { Transaction } from '../transaction.js';

/**
 * Records `invoice_issued` for an invoice just issued: signup, renewal, reactivation, allocation,
 * migration, advance, ad hoc and consolidated parent invoices alike (`from`: the status a draft or
 * pending invoice was issued from, which the record then names). Recorded when the invoice opens and
 * before it is collected, so its `payment_*` record follows it. The caller gets the record whole; the log
 * keeps it without the lines when the invoice keeps them (domain/invoice/issued-event.ts).
 */
export function recordInvoiceIssued(tx: Transaction, invoice: Invoice, from?: InvoiceStatus): void {
  const issued = invoiceIssuedData(invoice);
  // The log's copy taken before the status is assigned below (it has its own), from the same strings.
  const logged = keepsIssuedLines(invoice) ? loggedIssuedData(issued, invoice.status, from) : undefined;
  // The status assigned after the fields rather than spread with them: a spread into a new literal, once
  // optimized, gave every record a hidden class of its own.
  const data: Record<string, unknown> = issued;
  if (from === undefined) data.status = invoice.status;
  else {
    data.from_status = from;
    data.to_status = invoice.status;
  }
  const message = `Invoice ${invoice.number} issued`;
  // Two literals rather than a conditional spread of `logged`.
  if (logged === undefined)
    tx.record({
      key: 'invoice_issued',
      message,
      subscriptionId: invoice.subscriptionId,
      customerId: invoice.customerId,
      data,
    });
  else
    tx.record({
      key: 'invoice_issued',
      message,
      subscriptionId: invoice.subscriptionId,
      customerId: invoice.customerId,
      data,
      logged,
    });
}

/**
 * The data of an `invoice_issued` record as the API shows it: a logged record without its lines gets
 * them from its invoice (an issued invoice's lines never change); a record that kept them, as every
 * record did before, is shown as it is.
 */
export function presentedIssuedData(
  state: SiteState,
  data: Readonly<Record<string, unknown>>,
): Readonly<Record<string, unknown>> {
  if (Object.hasOwn(data, 'line_items')) return data;
  const uid = data['uid'];
  const id = typeof uid === 'string' ? idOfUid('inv', uid) : undefined;
  const invoice = id === undefined ? undefined : tableGet(state.tables.invoices, id);
  return withIssuedLines(data, invoice === undefined ? [] : issuedLineItems(invoice));
}
