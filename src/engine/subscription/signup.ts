/**
 * Creating a subscription: its first period (or trial) in the site zone, the components it holds from
 * the start, the signup invoice, and the payment through the gateway. A refused payment refuses the
 * whole signup: nothing is written.
 */

import type { Product, ProductPricePoint } from '../../domain/catalog/types.js';
import type { Customer } from '../../domain/customer/types.js';
import type { DomainError } from '../../domain/errors.js';
import type { Invoice } from '../../domain/invoice/types.js';
import type { PaymentGateway, PaymentProfile } from '../../domain/payment/types.js';
import { periodOf, stepOf } from '../../domain/subscription/schedule.js';
import type { CollectionMethod, Subscription } from '../../domain/subscription/types.js';
import { NONE } from '../../kernel/compact.js';
import { isPositive } from '../../kernel/money.js';
import { err, ok, type Result } from '../../kernel/result.js';
import { type Instant, shiftFromAnchor } from '../../kernel/time.js';
import {
  planSignupComponents,
  type SignupComponent,
  saveSignupComponents,
  signupComponentsProblem,
} from '../allocation/signup-components.js';
import { invalidCouponCode, recordCouponUse } from '../coupon/coupon-use.js';
import { renewalCouponSpecs } from '../coupon/renewal-coupons.js';
import { type ChargeLine, collectInvoice, createInvoice } from '../invoice/collect.js';
import { recordInvoiceIssued } from '../invoice/issued-event.js';
import type { Transaction } from '../transaction.js';
import { initialChargeLine, productCharge } from './product-charge.js';

export interface SignupInput {
  readonly product: Product;
  readonly pricePoint: ProductPricePoint;
  readonly customer: Customer;
  readonly paymentProfile: PaymentProfile | null;
  readonly collectionMethod: CollectionMethod;
  readonly reference: string | null;
  readonly netTerms: number | null;
  /** A coupon code (or subcode) to discount the signup and, if recurring, later renewals. */
  readonly couponCode: string | null;
  /** The components the subscription holds from the start (signup-components.ts). */
  readonly components: readonly SignupComponent[];
}

const refused = (message: string, extra?: Readonly<Record<string, unknown>>): DomainError =>
  extra === undefined
    ? { code: 'signup_refused', status: 422, message }
    : { code: 'signup_refused', status: 422, message, extra };

const hasTrial = (pricePoint: ProductPricePoint) =>
  pricePoint.trialInterval !== null && pricePoint.trialInterval > 0 && pricePoint.trialIntervalUnit !== null;

/** A subscription just created, and what its first invoice charges. */
export interface OpenedSignup {
  readonly subscription: Subscription;
  readonly charges: readonly ChargeLine[];
  readonly coupons: ReturnType<typeof renewalCouponSpecs>;
  readonly components: ReturnType<typeof planSignupComponents>;
  readonly period: { readonly start: Instant; readonly end: Instant };
}

/**
 * Checks a signup and creates its subscription (first period or trial, expiry), returning the charges
 * its first invoice bills; nothing is invoiced or collected yet. A group signup bills several of these
 * on one consolidated invoice.
 */
export function openSignup(tx: Transaction, input: SignupInput): Result<OpenedSignup, DomainError> {
  const { product, pricePoint } = input;
  if (product.archivedAt !== null)
    return err(refused('Product: is archived and cannot be used for new subscriptions.'));
  if (pricePoint.archivedAt !== null)
    return err(refused('Price point: is archived and cannot be used for new subscriptions.'));
  const couponProblem =
    input.couponCode === null ? undefined : invalidCouponCode(tx, input.couponCode, product.productFamilyId);
  if (couponProblem !== undefined) return err(couponProblem);
  const componentProblem = signupComponentsProblem(input.components, product.productFamilyId);
  if (componentProblem !== null) return err(componentProblem);
  if (input.collectionMethod === 'automatic' && input.paymentProfile === null && product.requireCreditCard) {
    return err(refused('Credit card: cannot be blank.'));
  }
  const zone = tx.settings.timeZone;
  const trial = hasTrial(pricePoint);
  const period = trial
    ? periodOf(tx.now, zone, stepOf(pricePoint.trialInterval ?? 0, pricePoint.trialIntervalUnit ?? 'day'), 0)
    : periodOf(tx.now, zone, stepOf(pricePoint.interval, pricePoint.intervalUnit), 0);
  const expires =
    pricePoint.expirationInterval !== null &&
    pricePoint.expirationInterval > 0 &&
    pricePoint.expirationIntervalUnit !== null &&
    pricePoint.expirationIntervalUnit !== 'never'
      ? shiftFromAnchor(
          tx.now,
          zone,
          stepOf(pricePoint.expirationInterval, pricePoint.expirationIntervalUnit),
          1,
        )
      : null;
  const subscription = tx.put('subscriptions', {
    id: tx.nextId('subscriptions'),
    customerId: input.customer.id,
    productId: product.id,
    productPricePointId: pricePoint.id,
    nextProductId: null,
    nextProductPricePointId: null,
    productVersionNumber: product.versionNumber,
    paymentProfileId: input.paymentProfile?.id ?? null,
    state: trial ? 'trialing' : 'active',
    previousState: trial ? 'trialing' : 'active',
    paymentCollectionMethod: input.collectionMethod,
    billingAnchor: tx.now,
    periodNumber: 0,
    interval: trial ? (pricePoint.trialInterval ?? 0) : pricePoint.interval,
    intervalUnit: trial ? (pricePoint.trialIntervalUnit ?? 'day') : pricePoint.intervalUnit,
    currentPeriodStartedAt: period.start,
    currentPeriodEndsAt: period.end,
    nextAssessmentAt: period.end,
    trialStartedAt: trial ? tx.now : null,
    trialEndedAt: trial ? period.end : null,
    activatedAt: trial ? null : tx.now,
    expiresAt: expires,
    canceledAt: null,
    cancellationMessage: null,
    reasonCode: null,
    cancellationMethod: null,
    cancelAtEndOfPeriod: false,
    delayedCancelAt: null,
    onHoldAt: null,
    automaticallyResumeAt: null,
    couponCodes: input.couponCode === null ? NONE : [input.couponCode],
    reference: input.reference,
    netTerms: input.netTerms,
    balance: '0',
    totalRevenue: '0',
    signupPaymentId: null,
    signupRevenue: '0',
    prepaymentBalance: '0',
    serviceCreditBalance: '0',
    dunningAttempts: 0,
    nextDunningAt: null,
    dunningInvoiceIds: NONE,
    advanceInvoiceId: null,
    createdAt: tx.now,
    updatedAt: tx.now,
  });
  const charges: ChargeLine[] = [];
  if (trial) {
    if (pricePoint.trialPrice !== null && isPositive(pricePoint.trialPrice)) {
      charges.push({
        title: `${product.name} trial`,
        quantity: '1',
        unitPrice: pricePoint.trialPrice,
        taxable: product.taxable,
        kind: 'trial',
        productId: product.id,
        productPricePointId: pricePoint.id,
      });
    }
  } else {
    const charge = productCharge(tx, subscription, period.start, period.end);
    if (charge) charges.push(charge);
  }
  const initialCharge = !(trial && product.initialChargeAfterTrial)
    ? initialChargeLine(product, pricePoint)
    : undefined;
  if (initialCharge) charges.push(initialCharge);
  const components = planSignupComponents(tx, subscription, input.components);
  for (const { line } of components) if (line !== undefined) charges.push(line);
  const coupons = renewalCouponSpecs(tx, subscription, charges, false);
  return ok({ subscription, charges, coupons, components, period });
}

/** Signs a customer up to a product. */
export function signup(
  tx: Transaction,
  input: SignupInput,
  gateway: PaymentGateway,
): Result<Subscription, DomainError> {
  const opened = openSignup(tx, input);
  if (!opened.ok) return opened;
  const { subscription, charges, coupons, components, period } = opened.value;
  const { product } = input;
  const invoice = createInvoice(tx, {
    subscription,
    role: 'signup',
    status: 'open',
    lines: charges,
    coupons,
    periodStartedAt: period.start,
    periodEndsAt: period.end,
  });
  saveSignupComponents(tx, subscription, components, invoice.id);
  recordSignupCouponUse(tx, coupons, product.id, invoice);
  recordInvoiceIssued(tx, tx.get('invoices', invoice.id) ?? invoice);
  const outcome = collectInvoice(tx, invoice.id, gateway);
  if (outcome.kind === 'failed') {
    return err(
      refused(
        outcome.requiresAction
          ? 'Your card was declined. This transaction requires 3D secure authentication.'
          : `Payment failed: ${outcome.message}`,
      ),
    );
  }
  if (outcome.kind === 'not-collected' && outcome.reason === 'no-payment-profile') {
    return err(refused('A payment profile is required: the signup charges are due now.'));
  }
  const current = tx.get('subscriptions', subscription.id) ?? subscription;
  const paid = outcome.kind === 'paid' ? outcome : null;
  const final = tx.put('subscriptions', {
    ...current,
    signupPaymentId: paid?.transactionId ?? null,
    signupRevenue: paid?.amount ?? '0',
  });
  recordSignupSuccess(tx, input, final, paid?.transactionId ?? invoice.id);
  return ok(final);
}

/** Counts a signup invoice's coupon discounts in each coupon's usage. */
export function recordSignupCouponUse(
  tx: Transaction,
  coupons: OpenedSignup['coupons'],
  productId: number,
  invoice: Invoice,
): void {
  for (const coupon of coupons) {
    if (coupon.sourceId !== null)
      recordCouponUse(tx, coupon.sourceId, productId, invoice.totals.discount, invoice.totals.total);
  }
}

/** Records `signup_success` for a subscription created by `input`. */
export function recordSignupSuccess(
  tx: Transaction,
  input: Pick<SignupInput, 'customer' | 'product'>,
  subscription: Subscription,
  transactionId: number,
): void {
  tx.record({
    key: 'signup_success',
    message: `Signup of ${input.customer.firstName} ${input.customer.lastName} to ${input.product.name} succeeded`,
    subscriptionId: subscription.id,
    customerId: input.customer.id,
    data: { product_id: input.product.id, account_transaction_id: transactionId },
  });
}
