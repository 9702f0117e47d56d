/**
 * Building invoice records: charges become line drafts, the shared invoice calculation prices them with
 * the invoice's coupons and the taxes of its destination, and the record stores the result. Updating a
 * draft prices its lines again the same way, so a preview, a commit and an update agree to the cent.
 */

import { couponAppliesTo } from '../../domain/coupon/rules.js';
import type { Coupon } from '../../domain/coupon/types.js';
import type { Customer } from '../../domain/customer/types.js';
import { type CalcCoupon, type CalcLine, calculateInvoice } from '../../domain/invoice/calculation/index.js';
import type {
  Invoice,
  InvoiceAddress,
  InvoiceDiscount,
  InvoiceLine,
  InvoiceParty,
  InvoiceRole,
  InvoiceStatus,
  InvoiceTax,
} from '../../domain/invoice/types.js';
import type { SiteTaxRate } from '../../domain/site/config.js';
import type { Subscription } from '../../domain/subscription/types.js';
import { listFromArray, listRange } from '../../kernel/collection.js';
import { uidOf } from '../../kernel/ids.js';
import { add, type Dec, sub } from '../../kernel/money.js';
import { addDays, type CalendarDate, calendarDateOf } from '../../kernel/time.js';
import type { Transaction } from '../transaction.js';

/** A charge to put on an invoice. */
export interface ChargeLine {
  readonly title: string;
  readonly description?: string;
  readonly quantity: Dec;
  readonly unitPrice: Dec;
  /** The exact amount when the caller priced the line itself (tiered components). */
  readonly amount?: Dec;
  readonly taxable: boolean;
  readonly kind: string;
  readonly productId?: number;
  readonly productVersion?: number;
  readonly productPricePointId?: number;
  readonly componentId?: number;
  readonly pricePointId?: number;
  readonly customItem?: boolean;
  readonly tieredUnitPrice?: boolean;
  readonly periodRangeStart?: CalendarDate | null;
  readonly periodRangeEnd?: CalendarDate | null;
  readonly taxCode?: string | null;
}

/** A coupon on an invoice: a catalog coupon resolved by the caller, or an ad hoc one. */
export interface InvoiceCouponSpec {
  readonly code: string;
  readonly subcode: string | null;
  readonly sourceType: 'Coupon' | 'Ad Hoc Coupon';
  readonly sourceId: number | null;
  readonly kind: 'percentage' | 'amount';
  readonly percentage: Dec | null;
  readonly amount: Dec | null;
  readonly compoundingStrategy: 'compound' | 'full-price';
  readonly description: string | null;
  /** Restrictions: the charges (by index) the coupon applies to, or null for all. */
  readonly eligibleLineIndexes?: readonly number[] | null;
}

export interface InvoiceSpec {
  readonly subscription: Subscription;
  readonly role: InvoiceRole;
  readonly status: InvoiceStatus;
  readonly lines: readonly ChargeLine[];
  readonly coupons?: readonly InvoiceCouponSpec[];
  readonly issueDate?: CalendarDate;
  readonly dueDate?: CalendarDate;
  readonly netTerms?: number;
  readonly memo?: string;
  readonly paymentInstructions?: string;
  readonly sellerAddress?: InvoiceAddress | null;
  readonly billingAddress?: InvoiceAddress | null;
  readonly shippingAddress?: InvoiceAddress | null;
  readonly periodStartedAt?: string | null;
  readonly periodEndsAt?: string | null;
  readonly advance?: boolean;
}

/**
 * The invoice coupon of a catalog coupon for a set of charges: a restricted coupon applies to the
 * charges of the products and components it names, an unrestricted one to every charge.
 */
export function catalogCouponSpec(
  coupon: Coupon,
  subcode: string | null,
  charges: readonly ChargeLine[],
): InvoiceCouponSpec {
  const eligible = charges.flatMap((charge, index) =>
    (charge.productId !== undefined && couponAppliesTo(coupon, 'Product', charge.productId)) ||
    (charge.componentId !== undefined && couponAppliesTo(coupon, 'Component', charge.componentId))
      ? [index]
      : [],
  );
  return {
    code: coupon.code,
    subcode,
    sourceType: 'Coupon',
    sourceId: coupon.id,
    kind: coupon.discountType === 'percent' ? 'percentage' : 'amount',
    percentage: coupon.percentage,
    amount: coupon.amount,
    compoundingStrategy: coupon.discountType === 'percent' ? coupon.compoundingStrategy : 'full-price',
    description: coupon.description ?? coupon.name,
    eligibleLineIndexes: coupon.restrictions.length === 0 ? null : eligible,
  };
}

/** The parts of a line that pricing fills in. */
export type LineDraft = Omit<InvoiceLine, 'subtotal' | 'discount' | 'tax' | 'total'>;

/** The parts of a discount that pricing fills in. */
export type DiscountDraft = Omit<InvoiceDiscount, 'eligibleAmount' | 'discountAmount' | 'breakouts'>;

/**
 * The site's tax rates for an invoice's destination (shipping address, else billing address, else the
 * customer's own): a rate with a country (and state) applies there only; tax-exempt customers pay none.
 */
export function taxRatesFor(
  rates: readonly SiteTaxRate[] | null,
  customer: Customer,
  destination: InvoiceAddress | null,
): SiteTaxRate[] {
  if (rates === null || customer.taxExempt) return [];
  const country = (destination?.country ?? customer.country ?? '').toUpperCase();
  const state = (destination?.state ?? customer.state ?? '').toUpperCase();
  return rates.filter(
    (rate) =>
      (rate.country === undefined || rate.country.toUpperCase() === country) &&
      (rate.state === undefined || rate.state.toUpperCase() === state),
  );
}

/** An invoice's view of a customer. */
export const partyOf = (customer: Customer): InvoiceParty => ({
  id: customer.id,
  firstName: customer.firstName,
  lastName: customer.lastName,
  organization: customer.organization,
  email: customer.email,
  vatNumber: customer.vatNumber,
  reference: customer.reference,
});

/** The customer's address as an invoice address. */
export const customerAddress = (customer: Customer): InvoiceAddress => ({
  firstName: customer.firstName,
  lastName: customer.lastName,
  phone: customer.phone,
  street: customer.address,
  line2: customer.address2,
  city: customer.city,
  state: customer.state,
  zip: customer.zip,
  country: customer.country,
});

/** Line drafts for charges, each with its own uid and transaction id. */
export function draftLines(tx: Transaction, charges: readonly ChargeLine[]): LineDraft[] {
  return charges.map((charge) => {
    const transactionId = tx.next('transactions');
    return {
      uid: uidOf('li', transactionId),
      title: charge.title,
      description: charge.description ?? '',
      quantity: charge.quantity,
      unitPrice: charge.unitPrice,
      taxable: charge.taxable,
      tieredUnitPrice: charge.tieredUnitPrice ?? false,
      periodRangeStart: charge.periodRangeStart ?? null,
      periodRangeEnd: charge.periodRangeEnd ?? null,
      productId: charge.productId ?? null,
      productVersion: charge.productVersion ?? null,
      productPricePointId: charge.productPricePointId ?? null,
      componentId: charge.componentId ?? null,
      pricePointId: charge.pricePointId ?? null,
      customItem: charge.customItem ?? false,
      kind: charge.kind,
      taxCode: charge.taxCode ?? null,
      transactionId,
      pricedAmount: charge.amount ?? null,
    };
  });
}

/** Discount drafts for coupon specs; restrictions by charge index become line uids. */
export function draftDiscounts(
  tx: Transaction,
  coupons: readonly InvoiceCouponSpec[],
  lines: readonly LineDraft[],
  previous: readonly DiscountDraft[] = [],
): DiscountDraft[] {
  return coupons.map((coupon, index) => {
    // The same coupon at the same place keeps its uid, so sending an update again changes nothing.
    const kept = previous[index]?.code === coupon.code ? previous[index] : undefined;
    const transactionId = kept?.transactionId ?? tx.next('transactions');
    return {
      uid: kept?.uid ?? uidOf('dscnt', transactionId),
      title: coupon.description ?? coupon.code,
      description: coupon.description,
      code: coupon.code,
      subcode: coupon.subcode,
      sourceType: coupon.sourceType,
      sourceId: coupon.sourceId,
      discountType: coupon.kind === 'percentage' ? 'percentage' : 'flat_amount',
      percentage: coupon.percentage,
      amount: coupon.amount,
      compoundingStrategy: coupon.compoundingStrategy,
      eligibleLineUids:
        coupon.eligibleLineIndexes === undefined || coupon.eligibleLineIndexes === null
          ? null
          : coupon.eligibleLineIndexes.flatMap((index) =>
              lines[index] === undefined ? [] : [lines[index].uid],
            ),
      transactionId,
    };
  });
}

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

/** Prices line and discount drafts with the given tax rates through the shared invoice calculation. */
export function priceInvoice(
  tx: Transaction,
  lines: readonly LineDraft[],
  discounts: readonly DiscountDraft[],
  rates: readonly SiteTaxRate[],
  previousTaxes: readonly InvoiceTax[] = [],
): PricedInvoice {
  const calculatesTaxes = tx.settings.taxes !== null;
  const coupons: CalcCoupon[] = discounts.map((discount) => ({
    code: discount.code,
    kind: discount.discountType === 'percentage' ? 'percentage' : 'amount',
    compoundingStrategy: discount.compoundingStrategy,
    ...(discount.percentage === null ? {} : { percentage: discount.percentage }),
    ...(discount.amount === null ? {} : { amount: discount.amount }),
    ...(discount.eligibleLineUids === null ? {} : { eligibleLineUids: discount.eligibleLineUids }),
  }));
  // A draft is already what the calculation reads (uid, quantity, unit price, taxability): a large
  // invoice's drafts go in as they are unless taxes are off or a line was priced by its caller.
  const asCalculated =
    calculatesTaxes && lines.every((line) => line.pricedAmount === null)
      ? lines
      : lines.map(
          (line): CalcLine => ({
            uid: line.uid,
            quantity: line.quantity,
            unitPrice: line.unitPrice,
            taxable: line.taxable && calculatesTaxes,
            ...(line.pricedAmount === null ? {} : { subtotal: line.pricedAmount }),
          }),
        );
  const calculation = calculateInvoice({
    currency: tx.settings.currency,
    lines: asCalculated,
    coupons,
    taxes: rates.map((rate, index) => ({
      name: rate.name,
      percentage: rate.percentage,
      sourceId: index + 1,
    })),
  });
  const pricedLines: InvoiceLine[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    const amounts = calculation.lines[index];
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
  const pricedDiscounts = discounts.map((discount, index) => {
    const result = calculation.discounts[index];
    return {
      ...discount,
      eligibleAmount: result?.eligibleAmount ?? '0',
      discountAmount: result?.discountAmount ?? '0',
      breakouts: result?.breakouts ?? [],
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
      breakouts: tax.breakouts,
    };
  });
  return {
    lines: pricedLines,
    discounts: pricedDiscounts,
    taxes,
    subtotal: calculation.subtotal,
    discount: calculation.discount,
    tax: calculation.tax,
    total: calculation.total,
  };
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
  const lines = draftLines(tx, spec.lines);
  const discounts = draftDiscounts(tx, spec.coupons ?? [], lines);
  const billingAddress = spec.billingAddress ?? customerAddress(customer);
  const shippingAddress = spec.shippingAddress ?? customerAddress(customer);
  const priced = priceInvoice(
    tx,
    lines,
    discounts,
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
    customer: partyOf(customer),
    payer: partyOf(customer),
    sellerAddress: spec.sellerAddress ?? null,
    billingAddress,
    shippingAddress,
    lines: listFromArray(priced.lines),
    discounts: priced.discounts,
    taxes: priced.taxes,
    payments: [],
    credits: [],
    history: [],
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
    lines: listFromArray(priced.lines),
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
