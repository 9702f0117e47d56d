/** The wire form of a subscription. */

import type { Subscription } from '../../domain/subscription/types.js';
import type { SiteState } from '../../engine/state.js';
import { tableGet } from '../../kernel/collection.js';
import { toMinor } from '../../kernel/money.js';
import { presentProduct } from '../catalog/products.js';
import { stamp } from '../common.js';
import { presentCustomer } from '../customer/customer-present.js';
import { presentNestedGroup } from '../group/subscription-groups-present.js';
import { presentPaymentProfile } from '../payment/payment-profiles.js';
import { presentPrepaidConfiguration } from './prepaid-configuration-present.js';

export function presentSubscription(state: SiteState, subscription: Subscription) {
  const currency = state.settings.currency;
  const customer = tableGet(state.tables.customers, subscription.customerId);
  const product = tableGet(state.tables.products, subscription.productId);
  const pricePoint = tableGet(state.tables.productPricePoints, subscription.productPricePointId);
  const profile =
    subscription.paymentProfileId === null
      ? undefined
      : tableGet(state.tables.paymentProfiles, subscription.paymentProfileId);
  const nextProduct =
    (subscription.nextProductId ?? null) === null
      ? undefined
      : tableGet(state.tables.products, subscription.nextProductId ?? 0);
  const presented = {
    id: subscription.id,
    state: subscription.state,
    previous_state: subscription.previousState,
    balance_in_cents: toMinor(subscription.balance, currency),
    total_revenue_in_cents: toMinor(subscription.totalRevenue, currency),
    product_price_in_cents: pricePoint ? toMinor(pricePoint.price, currency) : 0,
    product_version_number: subscription.productVersionNumber,
    current_period_started_at: stamp(state, subscription.currentPeriodStartedAt),
    current_period_ends_at: stamp(state, subscription.currentPeriodEndsAt),
    next_assessment_at: stamp(state, subscription.nextAssessmentAt),
    trial_started_at: stamp(state, subscription.trialStartedAt),
    trial_ended_at: stamp(state, subscription.trialEndedAt),
    activated_at: stamp(state, subscription.activatedAt),
    expires_at: stamp(state, subscription.expiresAt),
    created_at: stamp(state, subscription.createdAt),
    updated_at: stamp(state, subscription.updatedAt),
    canceled_at: stamp(state, subscription.canceledAt),
    cancellation_message: subscription.cancellationMessage,
    cancellation_method: subscription.cancellationMethod,
    reason_code: subscription.reasonCode ?? null,
    cancel_at_end_of_period: subscription.cancelAtEndOfPeriod,
    delayed_cancel_at: stamp(state, subscription.delayedCancelAt),
    on_hold_at: stamp(state, subscription.onHoldAt),
    payment_collection_method: subscription.paymentCollectionMethod,
    snap_day:
      subscription.snap !== undefined && subscription.snap.anchor === subscription.billingAnchor
        ? String(subscription.snap.day)
        : null,
    signup_payment_id: subscription.signupPaymentId,
    signup_revenue: subscription.signupRevenue,
    coupon_code: subscription.couponCodes[0] ?? null,
    coupon_codes: [...subscription.couponCodes],
    reference: subscription.reference,
    net_terms: subscription.netTerms,
    currency,
    product_price_point_id: subscription.productPricePointId,
    product_price_point_type: pricePoint?.type ?? 'default',
    next_product_id: subscription.nextProductId ?? null,
    next_product_handle: nextProduct?.handle ?? null,
    next_product_price_point_id: subscription.nextProductPricePointId ?? null,
    automatically_resume_at: stamp(state, subscription.automaticallyResumeAt),
    payment_type: profile?.paymentType ?? null,
    referral_code: null,
    coupon_use_count: null,
    coupon_uses_allowed: null,
    prepayment_balance_in_cents: toMinor(subscription.prepaymentBalance, currency),
    credit_balance_in_cents: toMinor(subscription.serviceCreditBalance, currency),
    prepaid_dunning: false,
    prepaid_configuration:
      subscription.prepaidConfiguration === undefined
        ? null
        : presentPrepaidConfiguration(state, subscription.prepaidConfiguration),
    customer: customer ? presentCustomer(state, customer) : null,
    product: product ? presentProduct(state, product) : null,
    group: presentNestedGroup(state, subscription.id),
  };
  // Assigned, not spread into the literal: V8 takes a slow path for a spread into a literal this large.
  // One declared shape for all three cases, so the wire type names both keys (an inferred union of the
  // three would be reduced to the shape without either).
  const method: PaymentMethodKey =
    profile === undefined
      ? {}
      : profile.paymentType === 'bank_account'
        ? { bank_account: presentPaymentProfile(state, profile) }
        : { credit_card: presentPaymentProfile(state, profile) };
  return Object.assign(presented, method);
}

/** The subscription's payment profile, under the key of its kind. */
export interface PaymentMethodKey {
  readonly credit_card?: ReturnType<typeof presentPaymentProfile>;
  readonly bank_account?: ReturnType<typeof presentPaymentProfile>;
}
