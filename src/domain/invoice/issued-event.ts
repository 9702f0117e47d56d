/**
 * The `event_specific_data` of an `invoice_issued` event: the official `InvoiceIssued` shape, whose
 * fields are all required by the SDK (a list of events containing a partial one fails its validation).
 */
import { moneyFormatter } from '../../kernel/money.js';
import type { Invoice } from './types.js';

/**
 * The issued invoice as the event carries it. A date the invoice does not have yet (`paid_date` of an
 * unpaid invoice) is an empty string, as the official models document; `status_amount` is the amount
 * the status is about: what was paid for a paid invoice, what is still due otherwise.
 */
export function invoiceIssuedData(invoice: Invoice) {
  const money = moneyFormatter(invoice.currency);
  const totals = invoice.totals;
  const lineItems = [];
  // Chunk by chunk rather than through the list's generator: an invoice may have a million lines.
  for (const chunk of invoice.lines.chunks) {
    for (const line of chunk) {
      lineItems.push({
        uid: line.uid,
        title: line.title,
        description: line.description,
        quantity: line.quantity,
        unit_price: line.unitPrice,
        period_range_start: line.periodRangeStart,
        period_range_end: line.periodRangeEnd,
        amount: money(line.subtotal),
        tax_amount: money(line.tax),
        tax_code: line.taxCode,
        product_id: line.productId,
        product_price_point_id: line.productPricePointId,
        price_point_id: line.pricePointId,
        component_id: line.componentId,
        custom_item: line.customItem,
      });
    }
  }
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
    // A copy of exact length: the array pushed to holds room for 17 items behind one line.
    line_items: lineItems.slice(),
  };
}
