/** Subscriptions: create (signup), read, list, list a customer's, cancel now. */

import { can } from '../../domain/subscription/transitions.js';
import type { CancellationReason, Subscription } from '../../domain/subscription/types.js';
import { listedRows } from '../../engine/list-index.js';
import { pageOfSet } from '../../engine/set-index.js';
import type { SiteState } from '../../engine/state.js';
import { signup } from '../../engine/subscription/signup.js';
import { cancelNow, refusedTransition } from '../../engine/subscription/status.js';
import { indexGet, tableRows, tableRowsReverse } from '../../kernel/collection.js';
import { err } from '../../kernel/result.js';
import { resolveSignupComponents, signupComponentsSchema } from '../allocation/signup-components-input.js';
import { decodeBody, findRef, missing, pageOf, paging } from '../common.js';
import { buildCustomer, customerFieldsSchema } from '../customer/customer-input.js';
import { recordCustomerCreate } from '../customer/customers.js';
import { z, zId, zIdOrHandle, zInt, zText } from '../decode.js';
import { buildPaymentProfile, paymentFieldsSchema } from '../payment/payment-profiles.js';
import { type Route, reply } from '../route.js';
import { selectProduct } from './product-selection.js';
import { presentSubscription } from './subscription-present.js';
import { referenceProblem } from './subscription-reference.js';

const createBody = z.object({
  subscription: z.object({
    product_id: zIdOrHandle().optional(),
    product_handle: zText().optional(),
    product_price_point_id: zIdOrHandle().optional(),
    product_price_point_handle: zText().optional(),
    customer_id: zId().optional(),
    customer_reference: zText().optional(),
    customer_attributes: customerFieldsSchema.optional(),
    payment_profile_id: zId().optional(),
    credit_card_attributes: paymentFieldsSchema.optional(),
    bank_account_attributes: paymentFieldsSchema.optional(),
    payment_collection_method: z.enum(['automatic', 'remittance']).optional(),
    reference: zText().nullish(),
    net_terms: zInt(0, 365).nullish(),
    coupon_code: zText().nullish(),
    components: signupComponentsSchema.nullish(),
  }),
});

/** What a cancellation (now or at the end of the period) may be given. */
export const cancellationFields = z.object({
  cancellation_message: zText(2000).nullish(),
  reason_code: zText().nullish(),
});

/**
 * The message and churn reason code a cancellation request gave; a blank reason code counts as none.
 * @example cancellationGiven({ reason_code: ' PRICE ' }) // { message: null, reasonCode: 'PRICE' }
 */
export function cancellationGiven(
  fields: z.infer<typeof cancellationFields> | undefined,
): CancellationReason {
  const code = fields?.reason_code?.trim() ?? '';
  return { message: fields?.cancellation_message ?? null, reasonCode: code === '' ? null : code };
}

const cancelBody = z.object({ subscription: cancellationFields.optional() }).optional();

const one = (subscription: Subscription) => (state: SiteState) => ({
  subscription: presentSubscription(state, subscription),
});
const unprocessable = (message: string, field?: string) =>
  err(
    field === undefined
      ? { code: 'invalid_subscription', status: 422 as const, message }
      : { code: 'invalid_subscription', status: 422 as const, message, field },
  );

/** Finds a subscription by id. */
export const findSubscription = (tx: Parameters<typeof findRef>[0], ref: string) =>
  findRef(tx, 'subscriptions', ref);

export const subscriptionRoutes = [
  {
    method: 'POST',
    path: '/subscriptions.json',
    body: createBody,
    run: ({ tx, body, gateway }) => {
      const input = decodeBody(createBody, body);
      if (!input.ok) return input;
      const fields = input.value.subscription;
      const selection = selectProduct(tx, fields);
      if (!selection.ok) return unprocessable(selection.error.message, selection.error.field);
      const { product, pricePoint } = selection.value;
      const components = resolveSignupComponents(tx, fields.components ?? []);
      if (!components.ok) return components;
      const referenceTaken = fields.reference ? referenceProblem(tx, fields.reference, null) : undefined;
      if (referenceTaken !== undefined) return err(referenceTaken);

      let customer = fields.customer_id === undefined ? undefined : tx.get('customers', fields.customer_id);
      if (fields.customer_id !== undefined && customer === undefined)
        return unprocessable('Customer: not found.', 'customer_id');
      if (customer === undefined && fields.customer_reference !== undefined) {
        const id = indexGet(tx.state.indexes.customerReferences, fields.customer_reference);
        customer = id === undefined ? undefined : tx.get('customers', id);
        if (customer === undefined) return unprocessable('Customer: not found.', 'customer_reference');
      }
      if (customer === undefined) {
        if (fields.customer_attributes === undefined)
          return unprocessable(
            'Customer: must be given by customer_id, customer_reference or customer_attributes.',
            'customer_id',
          );
        const built = buildCustomer(tx, fields.customer_attributes, tx.nextId('customers'));
        if (!built.ok) return built;
        customer = tx.put('customers', built.value);
        recordCustomerCreate(tx, customer);
      }

      let paymentProfile =
        fields.payment_profile_id === undefined
          ? null
          : (tx.get('paymentProfiles', fields.payment_profile_id) ?? null);
      if (
        fields.payment_profile_id !== undefined &&
        (paymentProfile === null || paymentProfile.customerId !== customer.id)
      ) {
        return unprocessable('Payment profile: not found for this customer.', 'payment_profile_id');
      }
      const attributes =
        fields.credit_card_attributes ??
        (fields.bank_account_attributes === undefined
          ? undefined
          : { payment_type: 'bank_account' as const, ...fields.bank_account_attributes });
      if (paymentProfile === null && attributes !== undefined) {
        const built = buildPaymentProfile(tx, customer.id, attributes, gateway, tx.nextId('paymentProfiles'));
        if (!built.ok) return built;
        paymentProfile = tx.put('paymentProfiles', built.value);
      }
      const created = signup(
        tx,
        {
          product,
          pricePoint,
          customer,
          paymentProfile,
          collectionMethod: fields.payment_collection_method ?? 'automatic',
          reference: fields.reference ?? null,
          netTerms: fields.net_terms ?? null,
          couponCode: fields.coupon_code?.trim().toUpperCase() || null,
          components: components.value,
        },
        gateway,
      );
      if (!created.ok) return created;
      return reply(201, one(created.value));
    },
  },
  {
    method: 'GET',
    path: '/subscriptions.json',
    query: ['page', 'per_page', 'direction', 'state'],
    run: ({ tx, query }) => {
      const page = paging(query);
      if (!page.ok) return page;
      const states = query.list('state');
      const descending = query.get('direction') !== 'asc';
      // A state filter pages through the ids of the subscriptions in those states, not the table.
      const subscriptions =
        states.length > 0
          ? pageOfSet(tx.state, 'subscriptionStates', states, 'subscriptions', page.value, descending)
          : pageOf(
              descending
                ? tableRowsReverse(tx.state.tables.subscriptions)
                : tableRows(tx.state.tables.subscriptions),
              page.value.page,
              page.value.perPage,
            );
      return reply(200, (state) =>
        subscriptions.map((subscription) => ({ subscription: presentSubscription(state, subscription) })),
      );
    },
  },
  {
    method: 'GET',
    path: '/customers/{customer_id}/subscriptions.json',
    run: ({ tx, params }) => {
      const customer = findRef(tx, 'customers', params['customer_id'] ?? '');
      if (customer === undefined) return err(missing('Customer'));
      const subscriptions = listedRows(tx.state, 'customerSubscriptions', customer.id, 'subscriptions');
      return reply(200, (state) =>
        subscriptions.map((subscription) => ({ subscription: presentSubscription(state, subscription) })),
      );
    },
  },
  {
    method: 'GET',
    path: '/subscriptions/{subscription_id}.json',
    run: ({ tx, params }) => {
      const subscription = findSubscription(tx, params['subscription_id'] ?? '');
      if (subscription === undefined) return err(missing('Subscription'));
      return reply(200, one(subscription));
    },
  },
  {
    method: 'DELETE',
    path: '/subscriptions/{subscription_id}.json',
    body: cancelBody,
    run: ({ tx, params, body }) => {
      const subscription = findSubscription(tx, params['subscription_id'] ?? '');
      if (subscription === undefined) return err(missing('Subscription'));
      const input = decodeBody(cancelBody, body);
      if (!input.ok) return input;
      if (!can(subscription.state, 'cancel')) return err(refusedTransition(subscription, 'cancel'));
      const canceled = cancelNow(
        tx,
        subscription,
        'merchant_api',
        cancellationGiven(input.value?.subscription),
      );
      return reply(200, one(canceled));
    },
  },
] as const satisfies readonly Route[];
