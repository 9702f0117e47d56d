/** The `invoice_issued` record every issued invoice leaves in the event log (docs/events.md). */

import { invoiceIssuedData } from '../../domain/invoice/issued-event.js';
import type { Invoice } from '../../domain/invoice/types.js';
import type { Transaction } from '../transaction.js';

/**
 * Records `invoice_issued` for an invoice just issued: signup, renewal, reactivation, allocation,
 * migration, advance, ad hoc and consolidated parent invoices alike. Recorded when the invoice opens and
 * before it is collected, so its `payment_*` record follows it. The status is assigned after the
 * fields rather than spread with them: a spread of the fields into a new literal, once optimized, gave
 * every record a hidden class of its own (about 500 bytes each).
 */
export function recordInvoiceIssued(tx: Transaction, invoice: Invoice): void {
  const data: Record<string, unknown> = invoiceIssuedData(invoice);
  data.status = invoice.status;
  tx.record({
    key: 'invoice_issued',
    message: `Invoice ${invoice.number} issued`,
    subscriptionId: invoice.subscriptionId,
    customerId: invoice.customerId,
    data,
  });
}
