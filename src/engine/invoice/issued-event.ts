/** The `invoice_issued` record every issued invoice leaves in the event log (docs/events.md). */

import { invoiceIssuedData } from '../../domain/invoice/issued-event.js';
import type { Invoice } from '../../domain/invoice/types.js';
import type { Transaction } from '../transaction.js';

/**
 * Records `invoice_issued` for an invoice just issued: signup, renewal, reactivation, allocation,
 * migration, advance, ad hoc and consolidated parent invoices alike. Recorded when the invoice opens and
 * before it is collected, so its `payment_*` record follows it. `extra` adds operation-specific fields
 * (the official `InvoiceIssued` shape allows more).
 */
export function recordInvoiceIssued(
  tx: Transaction,
  invoice: Invoice,
  extra: Readonly<Record<string, string>> = { status: invoice.status },
): void {
  tx.record({
    key: 'invoice_issued',
    message: `Invoice ${invoice.number} issued`,
    subscriptionId: invoice.subscriptionId,
    customerId: invoice.customerId,
    data: { ...invoiceIssuedData(invoice), ...extra },
  });
}
