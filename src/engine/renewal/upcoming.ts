/**
 * The next renewal of a subscription as the engine will bill it, for the documents that describe it
 * before it happens: the renewal preview and proforma invoices. Both take their lines and coupons from
 * here, and here from the renewal's own charge builders, so a preview can never drift from the invoice
 * the renewal then issues (with nothing changed in between).
 *
 * A period an advance invoice already billed renews as `renewCoveredPeriod` does: only what is billed in
 * arrears plus the allocation changes since the advance invoice, with what the advance invoice left of
 * amount coupons. Any other period bills the product, the initial charge a trial's end adds, and the
 * components (`componentRenewalCharges`), with the recurring coupons.
 */

import type { BillingPeriod } from '../../domain/allocation/proration.js';
import type { Subscription } from '../../domain/subscription/types.js';
import {
  billedInAdvance,
  componentArrearsCharges,
  componentRenewalCharges,
} from '../allocation/component-renewal.js';
import { renewalCouponSpecs } from '../coupon/renewal-coupons.js';
import { arrearsCouponSpecs, pendingAdvanceInvoice } from '../invoice/advance.js';
import type { ChargeLine, InvoiceCouponSpec } from '../invoice/drafts.js';
import { nextPeriodOf } from '../subscription/periods.js';
import { initialChargeLine, productCharge } from '../subscription/product-charge.js';
import type { Transaction } from '../transaction.js';

/** What the next renewal of a subscription bills. */
export interface UpcomingRenewal {
  readonly period: BillingPeriod;
  readonly charges: readonly ChargeLine[];
  readonly coupons: readonly InvoiceCouponSpec[];
  /** Whether an advance invoice already billed the period, so only its arrears are left to bill. */
  readonly covered: boolean;
}

/** The initial charge a trial's end adds when the product charges it after the trial (as `endTrial` does). */
function initialChargeAfterTrial(tx: Transaction, subscription: Subscription): ChargeLine[] {
  if (subscription.state !== 'trialing') return [];
  const product = tx.get('products', subscription.productId);
  const pricePoint = tx.get('productPricePoints', subscription.productPricePointId);
  if (product === undefined || pricePoint === undefined || !product.initialChargeAfterTrial) return [];
  const line = initialChargeLine(product, pricePoint);
  return line === undefined ? [] : [line];
}

/**
 * The charges and coupons of a subscription's next renewal at the quantities `scratch` holds, or
 * undefined when it has no next period. The charge builders reset the rows they bill (metered balances,
 * accrued charges, event usage) in `scratch`, so pass a transaction that is thrown away afterwards.
 * @example const next = upcomingRenewal(new Transaction(tx.state, tx.now), subscription);
 */
export function upcomingRenewal(
  scratch: Transaction,
  subscription: Subscription,
): UpcomingRenewal | undefined {
  const period = nextPeriodOf(scratch, subscription);
  if (period === undefined) return undefined;
  // A trial's end never looks for an advance invoice (only active subscriptions get one).
  const advance =
    subscription.state === 'trialing'
      ? undefined
      : pendingAdvanceInvoice(scratch, subscription, period.start);
  if (advance !== undefined) {
    const arrears = componentArrearsCharges(scratch, subscription, period, billedInAdvance(advance));
    const coupons = arrearsCouponSpecs(scratch, subscription, advance, arrears.lines);
    return { period, charges: arrears.lines, coupons, covered: true };
  }
  const product = productCharge(scratch, subscription, period.start, period.end);
  const charges = [
    ...(product === undefined ? [] : [product]),
    ...initialChargeAfterTrial(scratch, subscription),
    ...componentRenewalCharges(scratch, subscription, period),
  ];
  const coupons = renewalCouponSpecs(scratch, subscription, charges, true, period.start);
  return { period, charges, coupons, covered: false };
}
