/**
 * What an invoice is built from: the charges and coupons an operation bills, and the line and discount
 * drafts they become before `priceInvoice` (invoice-build.ts) prices them.
 */

import { couponAppliesTo } from '../../domain/coupon/rules.js';
import type { Coupon } from '../../domain/coupon/types.js';
import type { Customer } from '../../domain/customer/types.js';
import type {
  InvoiceAddress,
  InvoiceDiscount,
  InvoiceLine,
  InvoiceParty,
  InvoiceRole,
  InvoiceStatus,
} from '../../domain/invoice/types.js';
import type { SiteTaxRate } from '../../domain/site/config.js';
import type { Subscription } from '../../domain/subscription/types.js';
import { flatText } from '../../kernel/compact.js';
import { uidOf } from '../../kernel/ids.js';
import type { Dec } from '../../kernel/money.js';
import type { CalendarDate } from '../../kernel/time.js';
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
      description: flatText(charge.description ?? ''),
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

/**
 * A charge's invoice line, priced: the fields of its draft (`draftLines`) in their order, then its
 * amounts. Written out rather than spread, which costs several times as much per line.
 */
export function chargedLine(
  charge: ChargeLine,
  uid: string,
  transactionId: number,
  subtotal: Dec,
  discount: Dec,
  tax: Dec,
  total: Dec,
): InvoiceLine {
  return {
    uid,
    title: charge.title,
    description: flatText(charge.description ?? ''),
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
    subtotal,
    discount,
    tax,
    total,
  };
}

/** Discount drafts for coupon specs; restrictions by charge index become line uids. */
export function draftDiscounts(
  tx: Transaction,
  coupons: readonly InvoiceCouponSpec[],
  lines: readonly { readonly uid: string }[],
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
