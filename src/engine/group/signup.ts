/**
 * Signing a customer up to several products at once as a subscription group: every subscription is
 * created for the payer as a single signup creates it, the group is formed with the primary first, and
 * the members' first invoices are billed together on one consolidated invoice, collected once. A refused
 * payment refuses the whole signup, so the gateway is asked at most once.
 */

import type { Product, ProductPricePoint } from '../../domain/catalog/types.js';
import type { Customer } from '../../domain/customer/types.js';
import { type DomainError, invalid } from '../../domain/errors.js';
import type { SubscriptionGroup } from '../../domain/group/types.js';
import type { PaymentGateway, PaymentProfile } from '../../domain/payment/types.js';
import type { CollectionMethod } from '../../domain/subscription/types.js';
import { err, ok, type Result } from '../../kernel/result.js';
import {
  type OpenedSignup,
  openSignup,
  recordSignupCouponUse,
  recordSignupSuccess,
} from '../subscription/signup.js';
import type { Transaction } from '../transaction.js';
import { billConsolidated } from './billing.js';
import { createGroup } from './membership.js';

/** One subscription of a group signup. */
export interface GroupSignupMember {
  readonly product: Product;
  readonly pricePoint: ProductPricePoint;
  readonly reference: string | null;
  readonly couponCode: string | null;
  /** Whether it is the group's primary (the first member when none is). */
  readonly primary: boolean;
}

/** A group signup: the payer, how the group pays, and its members. */
export interface GroupSignupInput {
  readonly payer: Customer;
  readonly paymentProfile: PaymentProfile | null;
  readonly collectionMethod: CollectionMethod;
  readonly members: readonly GroupSignupMember[];
}

const refused = (message: string): DomainError =>
  invalid('group_signup_refused', message, 'subscription_group');

/** Signs the payer up to every member's product as one group. */
export function groupSignup(
  tx: Transaction,
  input: GroupSignupInput,
  gateway: PaymentGateway,
): Result<SubscriptionGroup, DomainError> {
  if (input.members.length === 0) return err(refused('Subscriptions: list at least one.'));
  if (input.members.filter((member) => member.primary).length > 1)
    return err(refused('Subscriptions: at most one can be the primary.'));
  const ordered = [...input.members].sort((a, b) => Number(b.primary) - Number(a.primary));
  const opened: OpenedSignup[] = [];
  for (const member of ordered) {
    const signedUp = openSignup(tx, {
      product: member.product,
      pricePoint: member.pricePoint,
      customer: input.payer,
      paymentProfile: input.paymentProfile,
      collectionMethod: input.collectionMethod,
      reference: member.reference,
      netTerms: null,
      couponCode: member.couponCode,
      components: [],
    });
    if (!signedUp.ok) return signedUp;
    opened.push(signedUp.value);
  }
  const [primary, ...others] = opened.map((entry) => entry.subscription);
  if (primary === undefined) return err(refused('Subscriptions: list at least one.'));
  const group = createGroup(tx, {
    payerId: input.payer.id,
    primary,
    others,
    ...(input.paymentProfile === null ? {} : { paymentProfileId: input.paymentProfile.id }),
  });
  const { parent, children, outcome } = billConsolidated(
    tx,
    group,
    opened.map((entry) => ({ subscription: entry.subscription, charges: entry.charges })),
    gateway,
    'signup',
  );
  if (outcome.kind === 'failed')
    return err(
      refused(
        outcome.requiresAction
          ? 'Your card was declined. This transaction requires 3D secure authentication.'
          : `Payment failed: ${outcome.message}`,
      ),
    );
  if (outcome.kind === 'not-collected' && outcome.reason === 'no-payment-profile')
    return err(refused('A payment profile is required: the signup charges are due now.'));
  opened.forEach((entry, index) => {
    const child = children[index];
    const member = ordered[index];
    if (child === undefined || member === undefined) return;
    recordSignupCouponUse(tx, entry.coupons, member.product.id, child);
    recordSignupSuccess(
      tx,
      { customer: input.payer, product: member.product },
      entry.subscription,
      parent.id,
    );
  });
  recordGroupSignupSuccess(tx, input, group, ordered);
  return ok(tx.get('subscriptionGroups', group.id) ?? group);
}

/**
 * The group's own `subscription_group_signup_success`, after its members' `signup_success`: what was
 * signed up (the official SubscriptionGroupSignupEventData) and the payer, on the primary subscription.
 */
function recordGroupSignupSuccess(
  tx: Transaction,
  input: GroupSignupInput,
  group: SubscriptionGroup,
  ordered: readonly GroupSignupMember[],
): void {
  const payer = input.payer;
  tx.record({
    key: 'subscription_group_signup_success',
    message: `Subscription group ${group.uid} signed up for ${payer.firstName} ${payer.lastName}`,
    subscriptionId: group.primarySubscriptionId,
    customerId: payer.id,
    data: {
      subscription_group: {
        payer_id: payer.id,
        ...(input.paymentProfile === null ? {} : { payment_profile_id: input.paymentProfile.id }),
        payment_collection_method: input.collectionMethod,
        subscriptions: ordered.map((member, index) => ({
          product_id: member.product.id,
          product_price_point_id: member.pricePoint.id,
          ...(member.reference === null ? {} : { reference: member.reference }),
          primary: index === 0,
          ...(member.couponCode === null ? {} : { coupon_codes: [member.couponCode] }),
        })),
      },
      customer: {
        id: payer.id,
        first_name: payer.firstName,
        last_name: payer.lastName,
        email: payer.email,
        cc_emails: payer.ccEmails,
        organization: payer.organization,
        reference: payer.reference,
      },
    },
  });
}
