/**
 * A subscription group's lifecycle: sign up with a group (`POST /subscription_groups/signup.json`),
 * cancel it now, cancel it at the end of the period and take that back, reactivate it.
 */

import type { Customer } from '../../domain/customer/types.js';
import type { SubscriptionGroup } from '../../domain/group/types.js';
import type { PaymentGateway, PaymentProfile } from '../../domain/payment/types.js';
import { type GroupSignupMember, groupSignup } from '../../engine/group/signup.js';
import {
  cancelGroup,
  delayGroupCancel,
  reactivateGroup,
  removeGroupDelayedCancel,
} from '../../engine/group/status.js';
import type { SiteState } from '../../engine/state.js';
import type { Transaction } from '../../engine/transaction.js';
import { indexGet, tableGet } from '../../kernel/collection.js';
import { toMinor } from '../../kernel/money.js';
import { err, ok, type Result } from '../../kernel/result.js';
import { decodeBody, missing, stamp } from '../common.js';
import { buildCustomer, customerFieldsSchema } from '../customer/customer-input.js';
import { recordCustomerCreate } from '../customer/customers.js';
import { z, zBool, zId, zIdOrHandle, zText } from '../decode.js';
import { buildPaymentProfile, paymentFieldsSchema } from '../payment/payment-profiles.js';
import { type Route, type RouteError, reply } from '../route.js';
import { selectProduct } from '../subscription/product-selection.js';
import { referenceProblem } from '../subscription/subscription-reference.js';
import { findGroup } from './subscription-groups.js';
import { presentFullGroup } from './subscription-groups-present.js';

const signupBody = z.object({
  subscription_group: z.object({
    payment_profile_id: zId().optional(),
    payer_id: zId().optional(),
    payer_reference: zText().optional(),
    payment_collection_method: z.enum(['automatic', 'remittance']).optional(),
    payer_attributes: customerFieldsSchema.optional(),
    credit_card_attributes: paymentFieldsSchema.optional(),
    bank_account_attributes: paymentFieldsSchema.optional(),
    subscriptions: z
      .array(
        z.object({
          product_id: zIdOrHandle().optional(),
          product_handle: zText().optional(),
          product_price_point_id: zIdOrHandle().optional(),
          product_price_point_handle: zText().optional(),
          reference: zText().nullish(),
          primary: zBool().optional(),
          coupon_codes: z.array(zText()).max(1, 'at most one coupon code per subscription').optional(),
        }),
      )
      .min(1, 'list at least one subscription')
      .max(100),
  }),
});
type SignupFields = z.infer<typeof signupBody>['subscription_group'];

const reactivateBody = z
  .object({ resume: zBool().optional(), resume_members: zBool().optional() })
  .optional();

/** A 422 in the official group signup shape, `{errors: {<field>: [message]}}`. */
const signupError = (field: string, message: string): RouteError => ({
  response: { status: 422, body: { errors: { [field]: [message] } } },
});

function findPayer(tx: Transaction, fields: SignupFields): Result<Customer, RouteError> {
  if (fields.payer_id !== undefined) {
    const payer = tx.get('customers', fields.payer_id);
    return payer === undefined ? err(signupError('payer_id', 'Customer: not found.')) : ok(payer);
  }
  if (fields.payer_reference !== undefined) {
    const id = indexGet(tx.state.indexes.customerReferences, fields.payer_reference);
    const payer = id === undefined ? undefined : tx.get('customers', id);
    return payer === undefined ? err(signupError('payer_reference', 'Customer: not found.')) : ok(payer);
  }
  if (fields.payer_attributes === undefined)
    return err(signupError('payer', 'Give payer_id, payer_reference or payer_attributes.'));
  const built = buildCustomer(tx, fields.payer_attributes, tx.nextId('customers'));
  if (!built.ok) return err(signupError('payer', built.error.message));
  const payer = tx.put('customers', built.value);
  recordCustomerCreate(tx, payer);
  return ok(payer);
}

function findProfile(
  tx: Transaction,
  fields: SignupFields,
  payer: Customer,
  gateway: PaymentGateway,
): Result<PaymentProfile | null, RouteError> {
  if (fields.payment_profile_id !== undefined) {
    const profile = tx.get('paymentProfiles', fields.payment_profile_id);
    return profile === undefined || profile.customerId !== payer.id
      ? err(signupError('payment_profile_id', "Payment profile: not found for the group's payer."))
      : ok(profile);
  }
  const attributes =
    fields.credit_card_attributes ??
    (fields.bank_account_attributes === undefined
      ? undefined
      : { payment_type: 'bank_account' as const, ...fields.bank_account_attributes });
  if (attributes === undefined) return ok(null);
  const built = buildPaymentProfile(tx, payer.id, attributes, gateway, tx.nextId('paymentProfiles'));
  if (!built.ok) return err(signupError('subscription_group', built.error.message));
  return ok(tx.put('paymentProfiles', built.value));
}

function members(tx: Transaction, fields: SignupFields): Result<GroupSignupMember[], RouteError> {
  const chosen: GroupSignupMember[] = [];
  for (const [index, item] of fields.subscriptions.entries()) {
    const selection = selectProduct(tx, item);
    if (!selection.ok) return err(signupError('subscriptions', `${index}: ${selection.error.message}`));
    const reference = item.reference ?? null;
    if (
      reference !== null &&
      (referenceProblem(tx, reference, null) !== undefined ||
        chosen.some((member) => member.reference === reference))
    )
      return err(signupError('subscriptions', `${index}: Reference: has already been taken.`));
    const code = item.coupon_codes?.[0];
    chosen.push({
      ...selection.value,
      reference,
      couponCode: code === undefined ? null : code.trim().toUpperCase(),
      primary: item.primary === true,
    });
  }
  return ok(chosen);
}

/** The official SubscriptionGroupSignupResponse: the group and a line per subscription. */
function presentSignup(state: SiteState, group: SubscriptionGroup) {
  const primary = tableGet(state.tables.subscriptions, group.primarySubscriptionId);
  const currency = state.settings.currency;
  return {
    uid: group.uid,
    scheme: 1,
    customer_id: group.customerId,
    payment_profile_id: group.paymentProfileId,
    subscription_ids: [...group.memberIds],
    primary_subscription_id: group.primarySubscriptionId,
    next_assessment_at: stamp(state, primary?.nextAssessmentAt ?? null),
    state: primary?.state ?? 'active',
    cancel_at_end_of_period: primary?.cancelAtEndOfPeriod ?? false,
    payment_collection_method: primary?.paymentCollectionMethod ?? 'automatic',
    subscriptions: group.memberIds.flatMap((id) => {
      const subscription = tableGet(state.tables.subscriptions, id);
      if (subscription === undefined) return [];
      const product = tableGet(state.tables.products, subscription.productId);
      const pricePoint = tableGet(state.tables.productPricePoints, subscription.productPricePointId);
      return [
        {
          id: subscription.id,
          reference: subscription.reference,
          product_id: subscription.productId,
          product_handle: product?.handle ?? null,
          product_price_point_id: subscription.productPricePointId,
          product_price_point_handle: pricePoint?.handle ?? '',
          currency,
          coupon_code: subscription.couponCodes[0] ?? null,
          total_revenue_in_cents: toMinor(subscription.totalRevenue, currency),
          balance_in_cents: toMinor(subscription.balance, currency),
        },
      ];
    }),
  };
}

const actionLinkFor = (state: SiteState) => (subscription: { readonly id: number }) =>
  `https://${state.settings.subdomain}.billing-core.local/3d-secure/${subscription.id}`;

export const groupLifecycleRoutes = [
  {
    method: 'POST',
    path: '/subscription_groups/signup.json',
    body: signupBody,
    errorShape: 'field-map',
    run: ({ tx, body, gateway }) => {
      const input = decodeBody(signupBody, body);
      if (!input.ok) return input;
      const fields = input.value.subscription_group;
      const chosen = members(tx, fields);
      if (!chosen.ok) return chosen;
      const payer = findPayer(tx, fields);
      if (!payer.ok) return payer;
      const profile = findProfile(tx, fields, payer.value, gateway);
      if (!profile.ok) return profile;
      const group = groupSignup(
        tx,
        {
          payer: payer.value,
          paymentProfile: profile.value,
          collectionMethod: fields.payment_collection_method ?? 'automatic',
          members: chosen.value,
        },
        gateway,
      );
      if (!group.ok) return err(signupError(group.error.field ?? 'subscription_group', group.error.message));
      return reply(201, (state) =>
        presentSignup(state, tableGet(state.tables.subscriptionGroups, group.value.id) ?? group.value),
      );
    },
  },
  {
    method: 'POST',
    path: '/subscription_groups/{uid}/cancel.json',
    body: z.object({ charge_unbilled_usage: zBool().optional() }).optional(),
    run: ({ tx, params }) => {
      const group = findGroup(tx, params['uid'] ?? '');
      if (group === undefined) return err(missing('Subscription group'));
      const canceled = cancelGroup(tx, group);
      return canceled.ok ? reply(200) : canceled;
    },
  },
  {
    method: 'POST',
    path: '/subscription_groups/{uid}/delayed_cancel.json',
    run: ({ tx, params }) => {
      const group = findGroup(tx, params['uid'] ?? '');
      if (group === undefined) return err(missing('Subscription group'));
      const flagged = delayGroupCancel(tx, group);
      return flagged.ok ? reply(200) : flagged;
    },
  },
  {
    method: 'DELETE',
    path: '/subscription_groups/{uid}/delayed_cancel.json',
    run: ({ tx, params }) => {
      const group = findGroup(tx, params['uid'] ?? '');
      if (group === undefined) return err(missing('Subscription group'));
      const removed = removeGroupDelayedCancel(tx, group);
      return removed.ok ? reply(200) : removed;
    },
  },
  {
    method: 'POST',
    path: '/subscription_groups/{uid}/reactivate.json',
    body: reactivateBody,
    run: ({ tx, params, body, gateway }) => {
      const group = findGroup(tx, params['uid'] ?? '');
      if (group === undefined) return err(missing('Subscription group'));
      const input = decodeBody(reactivateBody, body);
      if (!input.ok) return input;
      const reactivated = reactivateGroup(
        tx,
        group,
        { resume: input.value?.resume ?? false, resumeMembers: input.value?.resume_members ?? false },
        gateway,
        actionLinkFor(tx.state),
      );
      if (!reactivated.ok) return reactivated;
      return reply(200, (state) => {
        const full = presentFullGroup(state, group, false);
        return {
          uid: full.uid,
          scheme: full.scheme,
          customer_id: full.customer_id,
          payment_profile_id: full.payment_profile_id,
          subscription_ids: full.subscription_ids,
          primary_subscription_id: full.primary_subscription_id,
          next_assessment_at: full.next_assessment_at,
          state: full.state,
          cancel_at_end_of_period: full.cancel_at_end_of_period,
        };
      });
    },
  },
] as const satisfies readonly Route[];
