/**
 * An offer as the official Offer model shows it: the names and prices come from the catalog rows it
 * names as they are now (a price point repriced later shows its new price), amounts as elsewhere
 * (`*_in_cents` integers, unit prices decimal strings).
 */

import type { ComponentPricePoint } from '../../domain/catalog/component.js';
import type { Offer, OfferComponent } from '../../domain/offer/types.js';
import type { SiteState } from '../../engine/state.js';
import { tableGet } from '../../kernel/collection.js';
import { cents, stamp } from '../common.js';

/**
 * The unit price an offer item shows: a per-unit price point's price, else its first bracket's (what
 * the first units cost under a tiered, volume or stairstep scheme), "0" for a price point without prices.
 */
const unitPriceOf = (pricePoint: ComponentPricePoint | undefined): string =>
  pricePoint?.prices[0]?.unitPrice ?? '0';

function presentItem(state: SiteState, item: OfferComponent) {
  const component = tableGet(state.tables.components, item.componentId);
  const pricePoint = tableGet(state.tables.componentPricePoints, item.pricePointId);
  return {
    component_id: item.componentId,
    price_point_id: item.pricePointId,
    starting_quantity: item.startingQuantity,
    editable: false,
    component_unit_price: unitPriceOf(pricePoint),
    component_name: component?.name ?? '',
    price_point_name: pricePoint?.name ?? '',
    currency_prices: [],
    interval: pricePoint?.interval ?? undefined,
    interval_unit: pricePoint?.intervalUnit ?? null,
  };
}

function presentDiscount(state: SiteState, couponId: number) {
  const coupon = tableGet(state.tables.coupons, couponId);
  return { coupon_code: coupon?.code ?? '', coupon_id: couponId, coupon_name: coupon?.name ?? '' };
}

/** The wire form of an offer (the official Offer). */
export function presentOffer(state: SiteState, offer: Offer) {
  const product = tableGet(state.tables.products, offer.productId);
  const family =
    product === undefined ? undefined : tableGet(state.tables.productFamilies, product.productFamilyId);
  const pricePoint = tableGet(state.tables.productPricePoints, offer.productPricePointId);
  return {
    id: offer.id,
    site_id: state.settings.id,
    product_family_id: product?.productFamilyId ?? 0,
    product_id: offer.productId,
    product_price_point_id: offer.productPricePointId,
    product_revisable_number: product?.versionNumber ?? 1,
    name: offer.name,
    handle: offer.handle,
    description: offer.description,
    created_at: stamp(state, offer.createdAt),
    updated_at: stamp(state, offer.updatedAt),
    archived_at: stamp(state, offer.archivedAt),
    offer_items: offer.offerComponents.map((item) => presentItem(state, item)),
    offer_discounts: offer.couponIds.map((couponId) => presentDiscount(state, couponId)),
    product_family_name: family?.name ?? '',
    product_name: product?.name ?? '',
    product_price_point_name: pricePoint?.name ?? '',
    product_price_in_cents: pricePoint === undefined ? 0 : (cents(state, pricePoint.price) ?? 0),
    offer_signup_pages: [],
  };
}

/** `{offer: ...}`, the official OfferResponse. */
export const oneOffer = (offer: Offer) => (state: SiteState) => ({ offer: presentOffer(state, offer) });
