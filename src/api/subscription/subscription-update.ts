/**
 * Updating a subscription (`PUT /subscriptions/{id}.json`): its card, next billing date or snap day, product (now or
 * at the next renewal), collection method, net terms, reference and its components' custom prices; and
 * finding one by its reference.
 * Every field is checked before anything changes, so a refused update changes nothing.
 */

import type { DomainError } from '../../domain/errors.js';
import { invalid } from '../../domain/errors.js';
import type { PaymentGateway } from '../../domain/payment/types.js';
import { type SnapDay, snapDayOf } from '../../domain/subscription/snap-day.js';
import type { Subscription } from '../../domain/subscription/types.js';
import {
  type ComponentCustomPriceChange,
  setComponentCustomPrices,
} from '../../engine/allocation/custom-price.js';
import { listed } from '../../engine/list-index.js';
import type { SiteState } from '../../engine/state.js';
import {
  changeCollectionMethod,
  changeProductNow,
  moveNextBillingDate,
  type ProductSelectionIds,
  productChangeProblem,
  scheduleProductChange,
  snapNextBillingDate,
} from '../../engine/subscription/update.js';
import type { Transaction } from '../../engine/transaction.js';
import { err, ok, type Result } from '../../kernel/result.js';
import { parseTimestamp } from '../../kernel/time.js';
import { componentCustomPriceSchema, customPriceOf } from '../allocation/allocation-input.js';
import { decodeBody, missing } from '../common.js';
import { findComponent } from '../component/components-present.js';
import { z, zBool, zIdOrHandle, zInt, zText } from '../decode.js';
import { buildPaymentProfile, paymentFieldsSchema } from '../payment/payment-profiles.js';
import { type Route, reply } from '../route.js';
import { type ProductSelection, selectProduct } from './product-selection.js';
import { presentSubscription } from './subscription-present.js';
import { referenceProblem } from './subscription-reference.js';
import { findSubscription } from './subscriptions.js';

const updateBody = z.object({
  subscription: z.object({
    credit_card_attributes: paymentFieldsSchema.optional(),
    product_id: zIdOrHandle().optional(),
    product_handle: zText().optional(),
    product_price_point_id: zIdOrHandle().optional(),
    product_price_point_handle: zText().optional(),
    product_change_delayed: zBool().optional(),
    next_product_id: z.union([z.number(), zText(40)]).nullish(),
    next_product_price_point_id: z.union([z.number(), zText(40)]).nullish(),
    next_billing_at: zText(40).optional(),
    payment_collection_method: z.enum(['automatic', 'remittance']).optional(),
    net_terms: zInt(0, 365).nullish(),
    reference: zText().nullish(),
    snap_day: z.union([z.number(), zText(8)]).nullish(),
    custom_price: z.record(z.string(), z.unknown()).nullish(),
    components: z
      .array(
        z.object({
          component_id: zIdOrHandle().optional(),
          custom_price: componentCustomPriceSchema.optional(),
        }),
      )
      .max(100, 'can hold at most 100 components')
      .nullish(),
  }),
});

type UpdateFields = z.infer<typeof updateBody>['subscription'];

const refused = (message: string, field: string): DomainError =>
  invalid('invalid_subscription', message, field);

/** What the body asks of the product: a change now, a change at the next renewal, or clearing one. */
type ProductRequest =
  | { readonly kind: 'none' }
  | { readonly kind: 'now' | 'delayed'; readonly selection: ProductSelection }
  | { readonly kind: 'clear' };

function productRequest(
  tx: Transaction,
  subscription: Subscription,
  fields: UpdateFields,
): Result<ProductRequest, DomainError> {
  const namesProduct = fields.product_id !== undefined || fields.product_handle !== undefined;
  const namesPricePoint =
    fields.product_price_point_id !== undefined || fields.product_price_point_handle !== undefined;
  if (!namesProduct && !namesPricePoint) {
    const next = fields.next_product_id;
    return ok(next === '' || next === null ? { kind: 'clear' } : { kind: 'none' });
  }
  const selection = selectProduct(tx, {
    product_id: fields.product_id ?? (namesProduct ? undefined : String(subscription.productId)),
    product_handle: fields.product_handle,
    product_price_point_id: fields.product_price_point_id,
    product_price_point_handle: fields.product_price_point_handle,
  });
  if (!selection.ok) return err(refused(selection.error.message, selection.error.field));
  const problem = productChangeProblem(subscription, selection.value.product, selection.value.pricePoint);
  if (problem !== undefined) return err(problem);
  return ok({ kind: fields.product_change_delayed === true ? 'delayed' : 'now', selection: selection.value });
}

/** Applies an update whose every field was checked; the card first, as the gateway may refuse it. */
function applyUpdate(
  tx: Transaction,
  original: Subscription,
  fields: UpdateFields,
  product: ProductRequest,
  billingDate: BillingDateRequest,
  components: readonly ComponentCustomPriceChange[],
  gateway: PaymentGateway,
): Result<Subscription, DomainError> {
  let subscription = original;
  if (fields.credit_card_attributes !== undefined) {
    const built = buildPaymentProfile(
      tx,
      subscription.customerId,
      { payment_type: 'credit_card', ...fields.credit_card_attributes },
      gateway,
      tx.nextId('paymentProfiles'),
    );
    if (!built.ok) return built;
    const profile = tx.put('paymentProfiles', built.value);
    subscription = tx.put('subscriptions', {
      ...subscription,
      paymentProfileId: profile.id,
      updatedAt: tx.now,
    });
    tx.record({
      key: 'subscription_card_update',
      message: `Card of subscription ${subscription.id} updated to XXXX-${profile.lastFour}`,
      subscriptionId: subscription.id,
      customerId: subscription.customerId,
    });
  }
  if (billingDate.kind !== 'none') {
    const moved =
      billingDate.kind === 'date'
        ? moveNextBillingDate(tx, subscription, billingDate.at)
        : snapNextBillingDate(tx, subscription, billingDate.day);
    if (!moved.ok) return moved;
    subscription = moved.value;
  }
  if (product.kind === 'now')
    subscription = changeProductNow(
      tx,
      subscription,
      product.selection.product,
      product.selection.pricePoint,
    );
  else if (product.kind === 'delayed' || product.kind === 'clear') {
    const next: ProductSelectionIds | null =
      product.kind === 'clear'
        ? null
        : { productId: product.selection.product.id, pricePointId: product.selection.pricePoint.id };
    subscription = scheduleProductChange(tx, subscription, next);
  }
  if (fields.payment_collection_method !== undefined)
    subscription = changeCollectionMethod(tx, subscription, fields.payment_collection_method);
  const netTerms = fields.net_terms === undefined ? subscription.netTerms : fields.net_terms;
  const reference = fields.reference === undefined ? subscription.reference : fields.reference || null;
  if (netTerms !== subscription.netTerms || reference !== subscription.reference)
    subscription = tx.put('subscriptions', { ...subscription, netTerms, reference, updatedAt: tx.now });
  if (components.length > 0) {
    const priced = setComponentCustomPrices(tx, subscription, components);
    if (!priced.ok) return priced;
  }
  return ok(subscription);
}

/** The components' custom prices the body gives, each component found and its prices checked. */
function componentChanges(
  tx: Transaction,
  fields: UpdateFields,
): Result<ComponentCustomPriceChange[], DomainError> {
  const changes: ComponentCustomPriceChange[] = [];
  for (const [index, entry] of (fields.components ?? []).entries()) {
    if (entry.component_id === undefined)
      return err(refused(`Components: ${index}: component_id is required.`, 'components'));
    const component = findComponent(tx, entry.component_id);
    if (component === undefined)
      return err(refused(`Components: ${index}: component ${entry.component_id} not found.`, 'components'));
    if (entry.custom_price === undefined)
      return err(refused(`Components: ${index}: custom_price is required.`, 'components'));
    const customPrice = customPriceOf(entry.custom_price);
    if (!customPrice.ok) return customPrice;
    if (customPrice.value !== undefined) changes.push({ component, customPrice: customPrice.value });
  }
  return ok(changes);
}

/** What the body asks of the next billing date: a date, a snap day, or nothing. */
type BillingDateRequest =
  | { readonly kind: 'none' }
  | { readonly kind: 'date'; readonly at: string }
  | { readonly kind: 'snap'; readonly day: SnapDay };

/** Checks what can be checked without changing anything: unsupported fields, the date, the reference. */
function checkUpdate(
  tx: Transaction,
  subscription: Subscription,
  fields: UpdateFields,
): Result<BillingDateRequest, DomainError> {
  const snap = fields.snap_day ?? undefined;
  const snapDay = snap === undefined ? undefined : snapDayOf(snap);
  if (snap !== undefined && snapDay === undefined)
    return err(refused("Snap day: must be a day from 1 to 28 or 'end'.", 'snap_day'));
  if (snapDay !== undefined && fields.next_billing_at !== undefined)
    return err(refused('Snap day: cannot be used together with next_billing_at.', 'snap_day'));
  if (fields.custom_price !== undefined && fields.custom_price !== null)
    return err(
      refused(
        'Custom price: this subscription is on a catalog price point; change its price with product_price_point_id.',
        'custom_price',
      ),
    );
  const nextProduct = fields.next_product_id;
  if (
    nextProduct !== undefined &&
    nextProduct !== null &&
    nextProduct !== '' &&
    fields.product_id === undefined
  )
    return err(
      refused(
        'Next product id: schedule a product change with product_id and product_change_delayed, or clear it with "".',
        'next_product_id',
      ),
    );
  if (fields.reference) {
    const problem = referenceProblem(tx, fields.reference, subscription.id);
    if (problem !== undefined) return err(problem);
  }
  if (snapDay !== undefined) return ok({ kind: 'snap', day: snapDay });
  if (fields.next_billing_at === undefined) return ok({ kind: 'none' });
  const parsed = parseTimestamp(fields.next_billing_at, tx.settings.timeZone);
  if (!parsed.ok) return err(refused('Next billing at: must be a timestamp.', 'next_billing_at'));
  return ok({ kind: 'date', at: parsed.value });
}

const one = (subscription: Subscription) => (state: SiteState) => ({
  subscription: presentSubscription(state, subscription),
});

export const subscriptionUpdateRoutes = [
  {
    method: 'PUT',
    path: '/subscriptions/{subscription_id}.json',
    body: updateBody,
    run: ({ tx, params, body, gateway }) => {
      const subscription = findSubscription(tx, params['subscription_id'] ?? '');
      if (subscription === undefined) return err(missing('Subscription'));
      const input = decodeBody(updateBody, body);
      if (!input.ok) return input;
      const fields = input.value.subscription;
      const checked = checkUpdate(tx, subscription, fields);
      if (!checked.ok) return checked;
      const product = productRequest(tx, subscription, fields);
      if (!product.ok) return product;
      const components = componentChanges(tx, fields);
      if (!components.ok) return components;
      const updated = applyUpdate(
        tx,
        subscription,
        fields,
        product.value,
        checked.value,
        components.value,
        gateway,
      );
      return updated.ok ? reply(200, one(updated.value)) : updated;
    },
  },
  {
    method: 'GET',
    path: '/subscriptions/lookup.json',
    query: ['reference'],
    run: ({ tx, query }) => {
      const reference = query.get('reference');
      const id =
        reference === undefined || reference === ''
          ? undefined
          : listed(tx.state.listIndexes, 'subscriptionReferences', reference)[0];
      const subscription = id === undefined ? undefined : tx.get('subscriptions', id);
      if (subscription === undefined) return err(missing('Subscription'));
      return reply(200, one(subscription));
    },
  },
] as const satisfies readonly Route[];
