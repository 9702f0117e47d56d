/** Invoices as readable plain-text tables, from the wire form the API answers. */

import { z } from 'zod';
import { formatMoney } from '../kernel/money.js';

const nullableText = z.string().nullable();

const invoiceView = z.object({
  uid: z.string(),
  number: z.union([z.string(), z.number()]).nullable(),
  status: z.string(),
  role: z.string(),
  currency: z.string(),
  issue_date: nullableText,
  due_date: nullableText,
  seller: z.object({ name: z.string() }),
  customer: z.object({ first_name: z.string(), last_name: z.string(), email: z.string() }),
  line_items: z.array(
    z.object({
      title: z.string(),
      description: z.string().nullable(),
      quantity: z.string(),
      unit_price: z.string(),
      subtotal_amount: z.string(),
      period_range_start: nullableText,
      period_range_end: nullableText,
    }),
  ),
  discounts: z.array(z.object({ title: z.string(), discount_amount: z.string() })),
  taxes: z.array(z.object({ title: z.string(), percentage: z.string(), tax_amount: z.string() })),
  subtotal_amount: z.string(),
  discount_amount: z.string(),
  tax_amount: z.string(),
  total_amount: z.string(),
  credit_amount: z.string(),
  paid_amount: z.string(),
  due_amount: z.string(),
});

export type InvoiceView = z.infer<typeof invoiceView>;

/** Reads the fields the table shows from an API invoice, or undefined when they are not there. */
export function readInvoice(body: unknown): InvoiceView | undefined {
  const parsed = invoiceView.safeParse(body);
  return parsed.success ? parsed.data : undefined;
}

/** A description that is only a date range, `2026-01-15 - 2026-02-14`. */
const DATES_ONLY = /^\d{4}-\d{2}-\d{2} - \d{4}-\d{2}-\d{2}$/;
const trimZeros = (value: string) => (value.includes('.') ? value.replace(/\.?0+$/, '') : value);
const isZero = (amount: string) => /^-?0*(\.0*)?$/.test(amount);
/** An amount taken off the total: shown with a minus sign unless it is zero. */
const less = (amount: string) => (isZero(amount) ? amount : `-${amount}`);

/**
 * Renders an invoice as a table: header, one row per line item, then the totals.
 * @example renderInvoice(readInvoice(response.body)!).join('\n')
 */
export function renderInvoice(invoice: InvoiceView): string[] {
  const money = (amount: string) => formatMoney(amount, invoice.currency);
  const rows = invoice.line_items.map((line) => ({
    item: line.title,
    details: [
      // What the line is (an allocation change, an overage), unless it only repeats the period's dates.
      ...(line.description === null || line.description === '' || DATES_ONLY.test(line.description)
        ? []
        : [line.description]),
      ...(line.period_range_start !== null && line.period_range_end !== null
        ? [`${line.period_range_start} to ${line.period_range_end}`]
        : []),
    ],
    quantity: trimZeros(line.quantity),
    unit: money(line.unit_price),
    amount: money(line.subtotal_amount),
  }));
  const totals: [string, string][] = [['Subtotal', money(invoice.subtotal_amount)]];
  for (const discount of invoice.discounts)
    totals.push([discount.title, less(money(discount.discount_amount))]);
  for (const tax of invoice.taxes)
    totals.push([`${tax.title} (${trimZeros(tax.percentage)}%)`, money(tax.tax_amount)]);
  totals.push([`Total ${invoice.currency}`, money(invoice.total_amount)]);
  if (!isZero(invoice.credit_amount)) totals.push(['Credits', less(money(invoice.credit_amount))]);
  totals.push(['Paid', less(money(invoice.paid_amount))]);
  totals.push([`Amount due ${invoice.currency}`, money(invoice.due_amount)]);

  const header = { item: 'Item', quantity: 'Qty', unit: 'Unit price', amount: 'Amount' };
  const width = (pick: (row: typeof header) => string, extra: string[] = []) =>
    Math.max(
      pick(header).length,
      ...rows.map((line) => pick(line).length),
      ...extra.map((text) => text.length),
    );
  const amountWidth = width(
    (row) => row.amount,
    totals.map(([, amount]) => amount),
  );
  const unitWidth = width((row) => row.unit);
  const quantityWidth = width((row) => row.quantity);
  const itemWidth = Math.max(
    width(
      (row) => row.item,
      rows.flatMap((row) => row.details.map((detail) => `  ${detail}`)),
    ),
    ...totals.map(([label]) => label.length - quantityWidth - unitWidth - 4),
  );
  const row = (item: string, quantity: string, unit: string, amount: string) =>
    `  ${item.padEnd(itemWidth)}  ${quantity.padStart(quantityWidth)}  ${unit.padStart(unitWidth)}  ${amount.padStart(amountWidth)}`;
  const tableWidth = itemWidth + quantityWidth + unitWidth + amountWidth + 6;
  const rule = `  ${'-'.repeat(tableWidth)}`;
  const labelWidth = tableWidth - amountWidth - 2;
  const total = ([label, amount]: [string, string]) =>
    `  ${label.padStart(labelWidth)}  ${amount.padStart(amountWidth)}`;

  const number = invoice.number === null ? invoice.uid : `#${invoice.number}`;
  return [
    `Invoice ${number} (${invoice.role}, ${invoice.status})`,
    `  From ${invoice.seller.name} to ${invoice.customer.first_name} ${invoice.customer.last_name} <${invoice.customer.email}>`,
    `  Issued ${invoice.issue_date ?? '-'}, due ${invoice.due_date ?? '-'}`,
    '',
    row(header.item, header.quantity, header.unit, header.amount),
    rule,
    ...rows.flatMap((line) => [
      row(line.item, line.quantity, line.unit, line.amount),
      ...line.details.map((detail) => `    ${detail}`),
    ]),
    rule,
    ...totals.map(total),
  ];
}
