/**
 * What happens to a subscription as time passes: renewals, trial ends, dunning retries, delayed
 * cancellations and expiry. Each runs at the instant it falls due (`tx.now`).
 */

import type { PaymentGateway } from '../../domain/payment/types.js';
import { dueAction } from '../../domain/subscription/due-action.js';
import { periodOf, stepOf } from '../../domain/subscription/schedule.js';
import { cancellationReasonOf, type Subscription } from '../../domain/subscription/types.js';
import { componentRenewalCharges } from '../allocation/component-renewal.js';
import { groupOf } from '../group/membership.js';
import { renewWithGroup } from '../group/renewal.js';
import type { ChargeLine } from '../invoice/collect.js';
import { initialChargeLine, productCharge } from '../subscription/product-charge.js';
import { changeState } from '../subscription/state-change.js';
import { cancelNow, resume } from '../subscription/status.js';
import type { Transaction } from '../transaction.js';
import { billPeriod } from './bill-period.js';
import { retryDunning } from './dunning.js';
import { openNextPeriod } from './next-period.js';

/** Runs whatever is due now for a subscription. */
export function runDue(tx: Transaction, subscription: Subscription, gateway: PaymentGateway): void {
  switch (dueAction(subscription, tx.now)) {
    case null:
      return;
    case 'resume':
      resume(tx, subscription, gateway);
      return;
    case 'expire':
      changeState(tx, subscription, 'expired', { nextDunningAt: null });
      return;
    case 'retry':
      retryDunning(tx, subscription, gateway);
      return;
    case 'cancel':
      cancelNow(tx, subscription, 'merchant_api', cancellationReasonOf(subscription));
      return;
    case 'end-trial':
      endTrial(tx, subscription, gateway);
      return;
    case 'renew':
      renew(tx, subscription, gateway);
  }
}

/**
 * Starts the next period, bills it and collects. A group member renews together with every other
 * member of its group renewing at this very instant, on one consolidated invoice (group-billing.ts).
 */
function renew(tx: Transaction, subscription: Subscription, gateway: PaymentGateway): void {
  const opened = openNextPeriod(tx, subscription, gateway);
  if (opened === undefined) return;
  const group = groupOf(tx, subscription.id);
  if (group === undefined) {
    billPeriod(tx, opened.subscription, opened.charges, 'renewal', gateway);
    return;
  }
  renewWithGroup(tx, group, opened, gateway);
}

/** A trial ends: with a way to pay, the first paid period starts; without one, `trial_ended`. */
export function endTrial(tx: Transaction, subscription: Subscription, gateway: PaymentGateway): void {
  const pricePoint = tx.get('productPricePoints', subscription.productPricePointId);
  const product = tx.get('products', subscription.productId);
  if (pricePoint === undefined || product === undefined) return;
  const canPay =
    subscription.paymentProfileId !== null || subscription.paymentCollectionMethod === 'remittance';
  if (!canPay) {
    changeState(tx, subscription, 'trial_ended', { trialEndedAt: tx.now });
    return;
  }
  const period = periodOf(
    tx.now,
    tx.settings.timeZone,
    stepOf(pricePoint.interval, pricePoint.intervalUnit),
    0,
  );
  const active = changeState(tx, subscription, 'active', {
    trialEndedAt: tx.now,
    activatedAt: subscription.activatedAt ?? tx.now,
    billingAnchor: tx.now,
    periodNumber: 0,
    interval: pricePoint.interval,
    intervalUnit: pricePoint.intervalUnit,
    currentPeriodStartedAt: period.start,
    currentPeriodEndsAt: period.end,
    nextAssessmentAt: period.end,
  });
  const charges: ChargeLine[] = [];
  const charge = productCharge(tx, active, period.start, period.end);
  if (charge) charges.push(charge);
  const initialCharge = product.initialChargeAfterTrial ? initialChargeLine(product, pricePoint) : undefined;
  if (initialCharge) charges.push(initialCharge);
  charges.push(...componentRenewalCharges(tx, active, period));
  billPeriod(tx, active, charges, 'renewal', gateway);
}
