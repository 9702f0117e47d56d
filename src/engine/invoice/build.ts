/**
 * Building invoice records: charges become line drafts, the shared invoice calculation prices them with
 * the invoice's coupons and the taxes of its destination, and the record stores the result. Updating a
 * draft prices its lines again the same way, so a preview, a commit and an update agree to the cent.
 */

import {
  type CalcCoupon,
  type CalcLine,
  type CalculatedLine,
  calculatePlain,
  createInvoiceCalculator,
} from '../../domain/invoice/calculation/index.js';
import { storedBreakouts } from '../../domain/invoice/stored-breakouts.js';
import type {
  Invoice,
  InvoiceAddress,
  InvoiceDiscount,
  InvoiceLine,
  InvoiceTax,
} from '../../domain/invoice/types.js';
import type { SiteTaxRate } from '../../domain/site/config.js';
import { CHUNK_SIZE, type ChunkedList, listFromArray, listRange } from '../../kernel/collection.js';
import { NONE } from '../../kernel/compact.js';
import { uidOf } from '../../kernel/ids.js';
import { add, type Dec, minorUnits, sub } from '../../kernel/money.js';
import { addDays, calendarDateOf } from '../../kernel/time.js';
import type { Transaction } from '../transaction.js';
import {
  type ChargeLine,
  chargedLine,
  customerAddress,
  type DiscountDraft,
  draftDiscounts,
  type InvoiceCouponSpec,
  type InvoiceSpec,
  type LineDraft,
  partyOf,
  taxRatesFor,
} from './drafts.js';

/**
 * A priced line: the draft's fields in their order, then its amounts. Written out rather than spread,
 * which costs several times as much per line on a large invoice.
 */
function pricedLine(draft: LineDraft, subtotal: Dec, discount: Dec, tax: Dec, total: Dec): InvoiceLine {
  return {
    uid: draft.uid,
    title: draft.title,
    description: draft.description,
    quantity: draft.quantity,
    unitPrice: draft.unitPrice,
    taxable: draft.taxable,
    tieredUnitPrice: draft.tieredUnitPrice,
    periodRangeStart: draft.periodRangeStart,
    periodRangeEnd: draft.periodRangeEnd,
    productId: draft.productId,
    productVersion: draft.productVersion,
    productPricePointId: draft.productPricePointId,
    componentId: draft.componentId,
    pricePointId: draft.pricePointId,
    customItem: draft.customItem,
    kind: draft.kind,
    taxCode: draft.taxCode,
    transactionId: draft.transactionId,
    pricedAmount: draft.pricedAmount,
    subtotal,
    discount,
    tax,
    total,
  };
}

export interface PricedInvoice {
  readonly lines: InvoiceLine[];
  readonly discounts: InvoiceDiscount[];
  readonly taxes: InvoiceTax[];
  readonly subtotal: Dec;
  readonly discount: Dec;
  readonly tax: Dec;
  readonly total: Dec;
}

/** What pricing gives an invoice besides its lines: each line's amounts (in order), discounts, taxes, totals. */
interface PricedAmounts extends Omit<PricedInvoice, 'lines'> {
  readonly lineAmounts: readonly CalculatedLine[];
}

/** Prices line and discount drafts with the given tax rates through the shared invoice calculation. */
export function priceInvoice(
  tx: Transaction,
  lines: readonly LineDraft[],
  discounts: readonly DiscountDraft[],
  rates: readonly SiteTaxRate[],
  previousTaxes: readonly InvoiceTax[] = [],
): PricedInvoice {
  const calculatesTaxes = tx.settings.taxes !== null;
  // A draft is already what the calculation reads (uid, quantity, unit price, taxability): a large
  // invoice's drafts go in as they are unless taxes are off or a line was priced by its caller.
  const asCalculated =
    calculatesTaxes && lines.every((line) => line.pricedAmount === null)
      ? lines
      : lines.map((line) =>
          calcLine(
            line.uid,
            line.quantity,
            line.unitPrice,
            line.taxable && calculatesTaxes,
            line.pricedAmount,
          ),
        );
  const priced = priceAmounts(tx, asCalculated, discounts, rates, previousTaxes);
  const pricedLines: InvoiceLine[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    const amounts = priced.lineAmounts[index];
    pricedLines.push(
      pricedLine(
        lines[index]!,
        amounts?.subtotal ?? '0',
        amounts?.discount ?? '0',
        amounts?.tax ?? '0',
        amounts?.total ?? '0',
      ),
    );
  }
  return pricedInvoice(priced, pricedLines);
}

/** A line as the calculation reads it; a subtotal only when its caller priced it. */
function calcLine(
  uid: string,
  quantity: Dec,
  unitPrice: Dec,
  taxable: boolean,
  priced: Dec | null,
): CalcLine {
  // Two literals rather than a conditional spread, which costs several times as much per line.
  return priced === null
    ? { uid, quantity, unitPrice, taxable }
    : { uid, quantity, unitPrice, taxable, subtotal: priced };
}

/**
 * The invoice's amounts with its lines, every field named: spreading the amounts into a literal with the
 * lines cost a renewal more than building the invoice record did.
 */
const pricedInvoice = (priced: PricedAmounts, lines: InvoiceLine[]): PricedInvoice => ({
  lines,
  discounts: priced.discounts,
  taxes: priced.taxes,
  subtotal: priced.subtotal,
  discount: priced.discount,
  tax: priced.tax,
  total: priced.total,
});

/** Prices calculation lines and discount drafts with the given tax rates through the shared invoice calculation. */
function priceAmounts(
  tx: Transaction,
  lines: readonly CalcLine[],
  discounts: readonly DiscountDraft[],
  rates: readonly SiteTaxRate[],
  previousTaxes: readonly InvoiceTax[],
): PricedAmounts {
  if (discounts.length === 0 && rates.length === 0) {
    const plain = calculatePlain(lines, minorUnits(tx.settings.currency));
    if (plain !== undefined)
      return {
        lineAmounts: plain.lines,
        discounts: [],
        taxes: [],
        subtotal: plain.subtotal,
        discount: plain.zero,
        tax: plain.zero,
        total: plain.subtotal,
      };
  }
  const coupons: CalcCoupon[] = discounts.map((discount) => ({
    code: discount.code,
    kind: discount.discountType === 'percentage' ? 'percentage' : 'amount',
    compoundingStrategy: discount.compoundingStrategy,
    ...(discount.percentage === null ? {} : { percentage: discount.percentage }),
    ...(discount.amount === null ? {} : { amount: discount.amount }),
    ...(discount.eligibleLineUids === null ? {} : { eligibleLineUids: discount.eligibleLineUids }),
  }));
  // Breakouts are built once, as they are stored and presented (stored-breakouts.ts).
  const calculation = createInvoiceCalculator({
    currency: tx.settings.currency,
    lines,
    coupons,
    taxes: rates.map((rate, index) => ({
      name: rate.name,
      percentage: rate.percentage,
      sourceId: index + 1,
    })),
  }).calculationWith(storedBreakouts(tx.settings.currency));
  const pricedDiscounts = discounts.map((discount, index) => {
    const result = calculation.discounts[index];
    return {
      ...discount,
      eligibleAmount: result?.eligibleAmount ?? '0',
      discountAmount: result?.discountAmount ?? '0',
      breakouts: Object.freeze(result?.breakouts ?? []),
    };
  });
  const taxes = calculation.taxes.map((tax, index) => {
    const previous = previousTaxes.find((candidate) => candidate.title === tax.name);
    const transactionId = previous?.transactionId ?? tx.next('transactions');
    return {
      uid: previous?.uid ?? uidOf('tax', transactionId),
      title: tax.name,
      sourceId: tax.sourceId ?? index + 1,
      percentage: tax.percentage,
      taxableAmount: tax.taxableAmount,
      taxAmount: tax.taxAmount,
      transactionId,
      breakouts: Object.freeze(tax.breakouts),
    };
  });
  return {
    lineAmounts: calculation.lines,
    discounts: pricedDiscounts,
    taxes,
    subtotal: calculation.subtotal,
    discount: calculation.discount,
    tax: calculation.tax,
    total: calculation.total,
  };
}

/**
 * An invoice's charges priced: each charge becomes its invoice line directly, with no draft between (a
 * renewal of a thousand components made a thousand drafts only to copy them). Line transaction ids are
 * taken before the discounts' and the taxes', as `draftLines` then `priceInvoice` take them.
 */
function priceCharges(
  tx: Transaction,
  charges: readonly ChargeLine[],
  coupons: readonly InvoiceCouponSpec[],
  rates: readonly SiteTaxRate[],
): PricedInvoice {
  const calculatesTaxes = tx.settings.taxes !== null;
  const calcLines: CalcLine[] = new Array(charges.length);
  const transactionIds: number[] = new Array(charges.length);
  for (let index = 0; index < charges.length; index += 1) {
    const charge = charges[index]!;
    const transactionId = tx.next('transactions');
    transactionIds[index] = transactionId;
    calcLines[index] = calcLine(
      uidOf('li', transactionId),
      charge.quantity,
      charge.unitPrice,
      charge.taxable && calculatesTaxes,
      charge.amount ?? null,
    );
  }
  const discounts = draftDiscounts(tx, coupons, calcLines);
  const priced = priceAmounts(tx, calcLines, discounts, rates, []);
  const lines: InvoiceLine[] = new Array(charges.length);
  for (let index = 0; index < charges.length; index += 1) {
    const amounts = priced.lineAmounts[index];
    lines[index] = chargedLine(
      charges[index]!,
      calcLines[index]!.uid,
      transactionIds[index]!,
      amounts?.subtotal ?? '0',
      amounts?.discount ?? '0',
      amounts?.tax ?? '0',
      amounts?.total ?? '0',
    );
  }
  return pricedInvoice(priced, lines);
}

/**
 * An invoice's new lines as its list: an invoice of one chunk takes the array pricing made (no one else
 * holds it) as that chunk, which costs a renewal day less than `listFromArray`'s generic construction
 * and copy; larger ones are cut into chunks by `listFromArray`.
 */
function lineList(lines: InvoiceLine[]): ChunkedList<InvoiceLine> {
  if (lines.length > CHUNK_SIZE) return listFromArray(lines);
  return { length: lines.length, chunks: lines.length === 0 ? [] : [lines] };
}

/** Where an invoice's taxes are decided: the shipping address, else the billing address. */
const destinationOf = (
  shipping: InvoiceAddress | null,
  billing: InvoiceAddress | null,
): InvoiceAddress | null => (shipping?.country ? shipping : billing?.country ? billing : null);

/** Creates an invoice record for a subscription's charges. */
export function createInvoice(tx: Transaction, spec: InvoiceSpec): Invoice {
  const customer = tx.get('customers', spec.subscription.customerId);
  if (customer === undefined) throw new Error('subscription without customer');
  const product = tx.get('products', spec.subscription.productId);
  const family = product ? tx.get('productFamilies', product.productFamilyId) : undefined;
  const id = tx.nextId('invoices');
  // One object for the customer's address as billing and shipping address, and one party for customer
  // and payer: equal values, shared rather than repeated in every invoice of the site.
  const ownAddress = customerAddress(customer);
  const billingAddress = spec.billingAddress ?? ownAddress;
  const shippingAddress = spec.shippingAddress ?? ownAddress;
  const party = partyOf(customer);
  const priced = priceCharges(
    tx,
    spec.lines,
    spec.coupons ?? [],
    taxRatesFor(tx.settings.taxes, customer, destinationOf(shippingAddress, billingAddress)),
  );
  const defaults = tx.settings.invoiceDefaults;
  const issueDate = spec.issueDate ?? calendarDateOf(tx.now, tx.settings.timeZone);
  const netTerms = spec.netTerms ?? spec.subscription.netTerms ?? defaults.netTerms;
  const sequenceNumber = tx.next('invoiceNumbers');
  return tx.put('invoices', {
    id,
    uid: uidOf('inv', id),
    number: String(sequenceNumber),
    sequenceNumber,
    customerId: customer.id,
    subscriptionId: spec.subscription.id,
    status: spec.status,
    role: spec.role,
    collectionMethod: spec.subscription.paymentCollectionMethod,
    currency: tx.settings.currency,
    issueDate,
    dueDate: spec.dueDate ?? addDays(issueDate, netTerms),
    paidDate: null,
    netTerms,
    memo: spec.memo ?? defaults.memo,
    paymentInstructions: spec.paymentInstructions ?? defaults.paymentInstructions,
    productName: product?.name ?? '',
    productFamilyName: family?.name ?? '',
    // Group billing (group-billing.ts) turns invoices into consolidation parents and children.
    consolidationLevel: 'none',
    parentInvoiceId: null,
    subscriptionGroupId: null,
    customer: party,
    payer: party,
    sellerAddress: spec.sellerAddress ?? null,
    billingAddress,
    shippingAddress,
    lines: lineList(priced.lines),
    discounts: priced.discounts.length === 0 ? NONE : priced.discounts,
    taxes: priced.taxes.length === 0 ? NONE : priced.taxes,
    payments: NONE,
    credits: NONE,
    history: NONE,
    totals: {
      subtotal: priced.subtotal,
      discount: priced.discount,
      tax: priced.tax,
      total: priced.total,
      credit: '0',
      debit: '0',
      refund: '0',
      paid: '0',
      due: priced.total,
    },
    periodStartedAt: spec.periodStartedAt ?? null,
    periodEndsAt: spec.periodEndsAt ?? null,
    advance: spec.advance ?? false,
    voidReason: null,
    transactionTime: tx.now,
    createdAt: tx.now,
    updatedAt: tx.now,
  });
}

/** Prices an invoice again after its lines, discounts or addresses changed; credits and payments stay. */
export function repriceInvoice(
  tx: Transaction,
  invoice: Invoice,
  lines: readonly LineDraft[],
  discounts: readonly DiscountDraft[],
): Invoice {
  const customer = tx.get('customers', invoice.customerId);
  if (customer === undefined) throw new Error('invoice without customer');
  const rates = taxRatesFor(
    tx.settings.taxes,
    customer,
    destinationOf(invoice.shippingAddress, invoice.billingAddress),
  );
  const priced = priceInvoice(tx, lines, discounts, rates, invoice.taxes);
  const settled = add(invoice.totals.credit, invoice.totals.paid);
  return {
    ...invoice,
    lines: lineList(priced.lines),
    discounts: priced.discounts,
    taxes: priced.taxes,
    totals: {
      ...invoice.totals,
      subtotal: priced.subtotal,
      discount: priced.discount,
      tax: priced.tax,
      total: priced.total,
      due: sub(priced.total, settled),
    },
    updatedAt: tx.now,
  };
}

/** An invoice's lines as drafts, for repricing. */
export function linesAsDrafts(invoice: Invoice): LineDraft[] {
  const drafts: LineDraft[] = [];
  for (const line of listRange(invoice.lines)) {
    const { subtotal: _subtotal, discount: _discount, tax: _tax, total: _total, ...draft } = line;
    drafts.push(draft);
  }
  return drafts;
}

/** An invoice's discounts as drafts, for repricing. */
export const discountsAsDrafts = (invoice: Invoice): DiscountDraft[] =>
  invoice.discounts.map(
    ({ eligibleAmount: _eligible, discountAmount: _amount, breakouts: _breakouts, ...draft }) => draft,
  );
