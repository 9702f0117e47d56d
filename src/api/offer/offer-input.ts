/**
 * The body of `POST /offers.json` (the official CreateOfferRequest), decoded and checked against the
 * catalog: the product and its price point, each component and its price point with its starting
 * quantity, each coupon code. Every problem is collected by field, as the official 422 lists them.
 */

import type { Component } from '../../domain/catalog/component.js';
import type { Product } from '../../domain/catalog/types.js';
import { couponAvailability } from '../../domain/coupon/rules.js';
import {
  MAX_OFFER_COMPONENTS,
  MAX_OFFER_COUPONS,
  type OfferComponent,
  startingQuantityProblem,
} from '../../domain/offer/types.js';
import { resolveCouponCode } from '../../engine/coupon/coupon-use.js';
import type { Transaction } from '../../engine/transaction.js';
import { indexGet } from '../../kernel/collection.js';
import { err, ok, type Result } from '../../kernel/result.js';
import { calendarDateOf } from '../../kernel/time.js';
import { findProductPricePoint } from '../catalog/product-price-points.js';
import { findProduct } from '../catalog/products.js';
import { handleProblem } from '../common.js';
import { findComponent, findComponentPricePoint } from '../component/components-present.js';
import { decode, z, zDecimal, zIdOrHandle, zText } from '../decode.js';

const nonBlank = (text: string) => text.trim().length > 0;

/** The official CreateOfferRequest: name, handle and product required; components and coupons bounded. */
export const createOfferBody = z.object({
  offer: z.object({
    name: zText(255).refine(nonBlank, 'cannot be blank'),
    handle: zText(255),
    description: zText(10_000).nullish(),
    product_id: zIdOrHandle(),
    product_price_point_id: zIdOrHandle().nullish(),
    components: z
      .array(
        z.object({
          component_id: zIdOrHandle().nullish(),
          price_point_id: zIdOrHandle().nullish(),
          starting_quantity: zDecimal({ maxIntegerDigits: 12, maxScale: 10 }).nullish(),
        }),
      )
      .max(MAX_OFFER_COMPONENTS, `can hold at most ${MAX_OFFER_COMPONENTS} components`)
      .nullish(),
    coupons: z
      .array(zText(255))
      .max(MAX_OFFER_COUPONS, `can hold at most ${MAX_OFFER_COUPONS} coupons`)
      .nullish(),
  }),
});

type OfferFields = z.output<typeof createOfferBody>['offer'];
type ComponentFields = NonNullable<OfferFields['components']>[number];

/** Messages by field (`offer.components.0.component_id`), the official `{errors: {field: [...]}}`. */
export type OfferFieldErrors = Record<string, string[]>;

/** A checked offer request, ready to be stored. */
export interface OfferRequest {
  readonly name: string;
  readonly handle: string;
  readonly description: string | null;
  readonly productId: number;
  readonly productPricePointId: number;
  readonly offerComponents: readonly OfferComponent[];
  readonly couponIds: readonly number[];
}

/** Records a message for a field; answers undefined so that a resolver can return it as its failure. */
function add(errors: OfferFieldErrors, field: string, message: string): undefined {
  errors[field] = [...(errors[field] ?? []), message];
  return undefined;
}

/** The product and its price point, or undefined after recording why not. */
function resolveProduct(tx: Transaction, fields: OfferFields, errors: OfferFieldErrors) {
  const product = findProduct(tx, fields.product_id);
  if (product === undefined) return add(errors, 'offer.product_id', `product ${fields.product_id} not found`);
  if (product.archivedAt !== null) return add(errors, 'offer.product_id', 'the product is archived');
  const ref = fields.product_price_point_id;
  const pricePoint =
    ref == null
      ? tx.get('productPricePoints', product.defaultPricePointId)
      : findProductPricePoint(tx, product, ref);
  if (pricePoint === undefined)
    return add(errors, 'offer.product_price_point_id', `price point ${ref} not found for the product`);
  if (pricePoint.archivedAt !== null)
    return add(errors, 'offer.product_price_point_id', 'the price point is archived');
  return { product, pricePointId: pricePoint.id };
}

/** One component entry resolved, or undefined after recording why not. */
function resolveComponent(
  tx: Transaction,
  product: Product | undefined,
  entry: ComponentFields,
  field: string,
  errors: OfferFieldErrors,
): { component: Component; item: OfferComponent } | undefined {
  if (entry.component_id == null) return add(errors, `${field}.component_id`, 'is required');
  const component = findComponent(tx, entry.component_id);
  if (component === undefined)
    return add(errors, `${field}.component_id`, `component ${entry.component_id} not found`);
  if (component.archivedAt !== null) return add(errors, `${field}.component_id`, 'the component is archived');
  if (product !== undefined && component.productFamilyId !== product.productFamilyId)
    return add(errors, `${field}.component_id`, "the component is not in the product's family");
  const ref = entry.price_point_id;
  const pricePoint =
    ref == null
      ? tx.get('componentPricePoints', component.defaultPricePointId)
      : findComponentPricePoint(tx, component, ref);
  if (pricePoint === undefined)
    return add(errors, `${field}.price_point_id`, `price point ${ref} not found for the component`);
  if (pricePoint.archivedAt !== null)
    return add(errors, `${field}.price_point_id`, 'the price point is archived');
  const quantity = entry.starting_quantity ?? '0';
  const problem = startingQuantityProblem(component.kind, quantity, component.allowFractionalQuantities);
  if (problem !== null) return add(errors, `${field}.starting_quantity`, problem);
  return {
    component,
    item: { componentId: component.id, pricePointId: pricePoint.id, startingQuantity: quantity },
  };
}

function resolveComponents(
  tx: Transaction,
  product: Product | undefined,
  entries: readonly ComponentFields[],
  errors: OfferFieldErrors,
): OfferComponent[] {
  const items: OfferComponent[] = [];
  const seen = new Set<number>();
  for (const [index, entry] of entries.entries()) {
    const field = `offer.components.${index}`;
    const resolved = resolveComponent(tx, product, entry, field, errors);
    if (resolved === undefined) continue;
    if (seen.has(resolved.component.id))
      add(errors, `${field}.component_id`, 'the component appears more than once');
    seen.add(resolved.component.id);
    items.push(resolved.item);
  }
  return items;
}

/** The coupons' ids: each code (or subcode) must name a coupon of the product's family that can be applied today. */
function resolveCoupons(
  tx: Transaction,
  product: Product | undefined,
  codes: readonly string[],
  errors: OfferFieldErrors,
): number[] {
  const today = calendarDateOf(tx.now, tx.settings.timeZone);
  const ids: number[] = [];
  for (const [index, code] of codes.entries()) {
    const field = `offer.coupons.${index}`;
    const coupon = resolveCouponCode(tx, code)?.coupon;
    if (coupon === undefined) {
      add(errors, field, `coupon ${code} not found`);
      continue;
    }
    const availability = couponAvailability(coupon, today);
    if (availability !== 'valid') add(errors, field, `coupon ${code} is ${availability}`);
    else if (product !== undefined && coupon.productFamilyId !== product.productFamilyId)
      add(errors, field, `coupon ${code} is not in the product's family`);
    else if (ids.includes(coupon.id)) add(errors, field, `coupon ${code} appears more than once`);
    else ids.push(coupon.id);
  }
  return ids;
}

/**
 * The checked request, or every problem by field. `selfId` is null: a handle must be new to the site.
 * @example decodeOfferRequest(tx, { offer: { name: 'Gold', handle: 'gold', product_id: 1 } })
 */
export function decodeOfferRequest(tx: Transaction, body: unknown): Result<OfferRequest, OfferFieldErrors> {
  const decoded = decode(createOfferBody, body ?? {});
  if (!decoded.ok) return err({ ...decoded.error });
  const fields = decoded.value.offer;
  const errors: OfferFieldErrors = {};
  const handle = fields.handle.trim();
  const handleRefused = handleProblem(
    'Handle',
    handle,
    indexGet(tx.state.indexes.offerHandles, handle),
    null,
  );
  if (handleRefused !== undefined) add(errors, 'offer.handle', handleRefused.message);
  const resolved = resolveProduct(tx, fields, errors);
  const offerComponents = resolveComponents(tx, resolved?.product, fields.components ?? [], errors);
  const couponIds = resolveCoupons(tx, resolved?.product, fields.coupons ?? [], errors);
  if (resolved === undefined || Object.keys(errors).length > 0) return err(errors);
  const description = fields.description?.trim() ?? '';
  return ok({
    name: fields.name.trim(),
    handle,
    description: description === '' ? null : description,
    productId: resolved.product.id,
    productPricePointId: resolved.pricePointId,
    offerComponents,
    couponIds,
  });
}
