/**
 * Product migration. The unused part of the current period of the
 * old product becomes a prorated credit (a service credit the migration invoice consumes first). Without
 * `preserve_period` the period restarts at the migration and the new product's full price is charged (or
 * its trial starts, with `include_trial`); with it the period stays and the new price is prorated over
 * what is left. The preview runs the same code in a transaction that is thrown away.
 */

import { prorationLine } from '../../domain/allocation/proration-line.js';
import type { Product, ProductPricePoint } from '../../domain/catalog/types.js';
import type { DomainError } from '../../domain/errors.js';
import type { PaymentGateway } from '../../domain/payment/types.js';
import { periodOf, stepOf } from '../../domain/subscription/schedule.js';
import { can } from '../../domain/subscription/transitions.js';
import type { Subscription } from '../../domain/subscription/types.js';
import { add, type Dec, div, isPositive, min, mul, roundMoney, sub, toMinor } from '../../kernel/money.js';
import { err, ok, type Result } from '../../kernel/result.js';
import { type Instant, secondsBetween } from '../../kernel/time.js';
import { resolveCouponCode } from '../coupon/coupon-use.js';
import { renewalCouponSpecs } from '../coupon/renewal-coupons.js';
import { applyBalances, settleIfPaid } from '../invoice/balances.js';
import { type ChargeLine, collectInvoice, createInvoice } from '../invoice/collect.js';
import { recordInvoiceIssued } from '../invoice/issued-event.js';
import { paidInPeriod } from '../invoice/period-payments.js';
import { postServiceCreditGranted } from '../ledger/transfers.js';
import { listed } from '../list-index.js';
import { Transaction } from '../transaction.js';
import { initialChargeLine, productCharge } from './product-charge.js';
import { changeState } from './state-change.js';
import { refusedTransition } from './status.js';

export interface MigrationOptions {
  readonly product: Product;
  readonly pricePoint: ProductPricePoint;
  readonly includeTrial: boolean;
  readonly includeInitialCharge: boolean;
  readonly includeCoupons: boolean;
  readonly preservePeriod: boolean;
}

export interface MigrationOutcome {
  readonly subscription: Subscription;
  /** The prorated credit for the unused part of the old product (negative, as the API reports it). */
  readonly proratedAdjustment: Dec;
  readonly charge: Dec;
  readonly creditApplied: Dec;
  readonly paymentDue: Dec;
}

const hasTrial = (pricePoint: ProductPricePoint) =>
  pricePoint.trialInterval !== null && pricePoint.trialInterval > 0 && pricePoint.trialIntervalUnit !== null;

/**
 * The new product's charge for the share of the current period still ahead: the price × that share,
 * rounded, shown as quantity = the share and unit price = the price, as the official API shows a prorated
 * line.
 */
function proratedCharge(tx: Transaction, subscription: Subscription, full: ChargeLine): ChargeLine {
  const total = secondsBetween(subscription.currentPeriodStartedAt, subscription.currentPeriodEndsAt);
  const left = Math.max(0, secondsBetween(tx.now, subscription.currentPeriodEndsAt));
  const currency = tx.settings.currency;
  if (total <= 0) return { ...full, quantity: '0', amount: '0' };
  const amount = roundMoney(div(mul(full.unitPrice, String(left)), String(total)), currency);
  const shown = prorationLine('1', full.unitPrice, amount, { remaining: left, length: total }, currency);
  return { ...full, quantity: shown.quantity, unitPrice: shown.unitPrice, amount };
}

/**
 * The credit for leaving the current product: the unused share, at `tx.now`, of what this period's
 * invoices charged for it and were paid (net of discounts, before tax), so a free or unpaid period earns
 * nothing. Only invoices since the period's latest migration count: what an earlier migration already
 * credited is not credited again.
 */
function unusedPaidCredit(tx: Transaction, subscription: Subscription): Dec {
  if (subscription.state !== 'active') return '0';
  const start = subscription.currentPeriodStartedAt;
  const end = subscription.currentPeriodEndsAt;
  const since = latestMigrationIn(tx, subscription.id, start, end);
  return paidInPeriod(
    tx,
    subscription.id,
    start,
    end,
    (line) => line.productId === subscription.productId && line.kind === 'baseline',
    since === null ? { unusedAt: tx.now } : { unusedAt: tx.now, since },
  );
}

/** When the latest migration in `[start, end)` was invoiced, if one was. */
function latestMigrationIn(
  tx: Transaction,
  subscriptionId: number,
  start: Instant,
  end: Instant,
): Instant | null {
  let latest: Instant | null = null;
  for (const id of listed(tx.state.listIndexes, 'subscriptionInvoices', subscriptionId)) {
    const invoice = tx.get('invoices', id);
    if (invoice?.role !== 'migration' || invoice.createdAt < start || invoice.createdAt >= end) continue;
    if (latest === null || invoice.createdAt > latest) latest = invoice.createdAt;
  }
  return latest;
}

/** Migrates a subscription to another product (at `tx.now`). */
export function migrate(
  tx: Transaction,
  subscription: Subscription,
  options: MigrationOptions,
  gateway: PaymentGateway,
  actionLink: string,
): Result<MigrationOutcome, DomainError> {
  if (!can(subscription.state, 'migrate')) return err(refusedTransition(subscription, 'migrate'));
  const { product, pricePoint } = options;
  if (product.id === subscription.productId)
    return err({
      code: 'same_product',
      status: 422,
      message: 'The subscription is already on this product; choose another product to migrate to.',
    });
  if (product.archivedAt !== null || pricePoint.archivedAt !== null)
    return err({ code: 'archived', status: 422, message: 'The product or price point is archived.' });
  const credit = unusedPaidCredit(tx, subscription);
  const trial = options.includeTrial && !options.preservePeriod && hasTrial(pricePoint);
  const zone = tx.settings.timeZone;
  const period = options.preservePeriod
    ? { start: subscription.currentPeriodStartedAt, end: subscription.currentPeriodEndsAt }
    : trial
      ? periodOf(
          tx.now,
          zone,
          stepOf(pricePoint.trialInterval ?? 0, pricePoint.trialIntervalUnit ?? 'day'),
          0,
        )
      : periodOf(tx.now, zone, stepOf(pricePoint.interval, pricePoint.intervalUnit), 0);
  const withCredit = isPositive(credit)
    ? { ...subscription, serviceCreditBalance: add(subscription.serviceCreditBalance, credit) }
    : subscription;
  postServiceCreditGranted(tx, subscription.id, credit, 'migration');
  // A trial continues only when the period is preserved or the new product's trial is included.
  const inTrial = trial || (subscription.state === 'trialing' && options.preservePeriod);
  const migrated = changeState(
    tx,
    withCredit,
    inTrial
      ? 'trialing'
      : subscription.state === 'trial_ended' || subscription.state === 'trialing'
        ? 'active'
        : subscription.state,
    {
      productId: product.id,
      productPricePointId: pricePoint.id,
      productVersionNumber: product.versionNumber,
      // Coupons discount only their own family's products: a move to another family leaves them behind.
      couponCodes: options.includeCoupons
        ? subscription.couponCodes.filter(
            (code) => resolveCouponCode(tx, code)?.coupon.productFamilyId === product.productFamilyId,
          )
        : [],
      ...(options.preservePeriod
        ? {}
        : {
            billingAnchor: tx.now,
            periodNumber: 0,
            interval: trial ? (pricePoint.trialInterval ?? 0) : pricePoint.interval,
            intervalUnit: trial ? (pricePoint.trialIntervalUnit ?? 'day') : pricePoint.intervalUnit,
            currentPeriodStartedAt: period.start,
            currentPeriodEndsAt: period.end,
            nextAssessmentAt: period.end,
            ...(subscription.cancelAtEndOfPeriod ? { delayedCancelAt: period.end } : {}),
            ...(trial
              ? { trialStartedAt: tx.now, trialEndedAt: period.end }
              : subscription.state === 'trialing'
                ? { trialEndedAt: tx.now }
                : {}),
          }),
    },
  );
  tx.record({
    key: 'subscription_product_change',
    message: tx.settings.newCatalogExperience
      ? `Plan changed on subscription ${subscription.id} from ${tx.get('products', subscription.productId)?.name ?? subscription.productId} to ${product.name}`
      : `Product changed on subscription ${subscription.id} from ${tx.get('products', subscription.productId)?.name ?? subscription.productId} to ${product.name}`,
    subscriptionId: subscription.id,
    customerId: subscription.customerId,
    data: { new_product_id: product.id, previous_product_id: subscription.productId },
  });
  const charges: ChargeLine[] = [];
  const full = productCharge(tx, migrated, period.start, period.end);
  if (full !== undefined && !inTrial) {
    charges.push(options.preservePeriod ? proratedCharge(tx, subscription, full) : full);
  }
  const initialCharge = options.includeInitialCharge ? initialChargeLine(product, pricePoint) : undefined;
  if (initialCharge) charges.push(initialCharge);
  const coupons = options.includeCoupons ? renewalCouponSpecs(tx, migrated, charges) : [];
  const invoice = createInvoice(tx, {
    subscription: migrated,
    role: 'migration',
    status: 'open',
    lines: charges,
    coupons,
    periodStartedAt: period.start,
    periodEndsAt: period.end,
  });
  const applied = settleIfPaid(tx, applyBalances(tx, invoice));
  recordInvoiceIssued(tx, applied);
  const creditApplied = applied.totals.credit;
  const paymentDue = applied.totals.due;
  if (isPositive(paymentDue)) {
    const outcome = collectInvoice(tx, applied.id, gateway);
    if (outcome.kind === 'failed') {
      return err(
        outcome.requiresAction
          ? {
              code: 'requires_action',
              status: 422,
              message: 'Your card was declined. This transaction requires 3D secure authentication.',
              extra: { action_link: actionLink },
            }
          : { code: 'payment_failed', status: 422, message: `Payment failed: ${outcome.message}` },
      );
    }
  }
  return ok({
    subscription: tx.get('subscriptions', subscription.id) ?? migrated,
    proratedAdjustment: sub('0', credit),
    charge: invoice.totals.total,
    creditApplied: min(creditApplied, invoice.totals.total),
    paymentDue,
  });
}

/** What a migration would charge as of `at` (within the current period), changing nothing. */
export function previewMigration(
  tx: Transaction,
  subscription: Subscription,
  options: MigrationOptions,
  at: string,
) {
  // The scratch transaction is never applied; its gateway only lets the same code run to the end.
  const scratch = new Transaction(tx.state, at);
  const outcome = migrate(scratch, subscription, options, () => ({ success: true }), '');
  if (!outcome.ok) return outcome;
  const currency = tx.settings.currency;
  return ok({
    prorated_adjustment_in_cents: toMinor(outcome.value.proratedAdjustment, currency),
    charge_in_cents: toMinor(outcome.value.charge, currency),
    payment_due_in_cents: toMinor(outcome.value.paymentDue, currency),
    credit_applied_in_cents: toMinor(outcome.value.creditApplied, currency),
  });
}
