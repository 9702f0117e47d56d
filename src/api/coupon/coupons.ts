/**
 * Coupons: create in a product family, read (in its family or by id alone), update (with the
 * restriction maps), archive, and list (the site's or a family's).
 */

import type { ProductFamily } from '../../domain/catalog/types.js';
import type { Coupon } from '../../domain/coupon/types.js';
import type { Transaction } from '../../engine/transaction.js';
import { tableRows } from '../../kernel/collection.js';
import { parseId } from '../../kernel/ids.js';
import { err } from '../../kernel/result.js';
import { decodeBody, findRef, missing, pageOf, paging } from '../common.js';
import type { QueryParams } from '../query.js';
import { type Route, type RouteContext, type RouteResult, reply } from '../route.js';
import { buildCoupon, couponBody } from './coupon-input.js';
import { oneCoupon, presentCoupon } from './coupon-present.js';
import { COUPON_LIST_QUERY, couponMatches, readCouponFilter } from './coupons-list.js';

/** A product family by id or `handle:`. */
export const findFamily = (tx: Transaction, ref: string): ProductFamily | undefined =>
  findRef(tx, 'productFamilies', ref, 'productFamilyHandles');

/** A coupon by id. */
export const findCoupon = (tx: Transaction, ref: string): Coupon | undefined => {
  const id = parseId(ref);
  return id === undefined ? undefined : tx.get('coupons', id);
};

/** Runs `then` with the family and coupon of `/product_families/{pf}/coupons/{coupon_id}` (404 otherwise). */
export function withFamilyCoupon<T>(
  context: RouteContext,
  then: (family: ProductFamily, coupon: Coupon) => RouteResult<T>,
): RouteResult<T> {
  const family = findFamily(context.tx, context.params['product_family_id'] ?? '');
  if (family === undefined) return err(missing('Product family'));
  const coupon = findCoupon(context.tx, context.params['coupon_id'] ?? '');
  if (coupon === undefined || coupon.productFamilyId !== family.id) return err(missing('Coupon'));
  return then(family, coupon);
}

function listCoupons(tx: Transaction, query: QueryParams, familyId: number | null) {
  const page = paging(query, 30);
  if (!page.ok) return page;
  const filter = readCouponFilter(query, tx.settings.timeZone);
  if (!filter.ok) return filter;
  const matching = function* () {
    for (const coupon of tableRows(tx.state.tables.coupons)) {
      if (familyId !== null && coupon.productFamilyId !== familyId) continue;
      if (couponMatches(filter.value, coupon)) yield coupon;
    }
  };
  const coupons = pageOf(matching(), page.value.page, page.value.perPage);
  return reply(200, (state) => coupons.map((coupon) => ({ coupon: presentCoupon(state, coupon) })));
}

export const couponRoutes = [
  {
    method: 'POST',
    path: '/product_families/{product_family_id}/coupons.json',
    // The shape is the same in every currency; only its decimal limits differ.
    body: couponBody('USD'),
    run: ({ tx, params, body }) => {
      const family = findFamily(tx, params['product_family_id'] ?? '');
      if (family === undefined) return err(missing('Product family'));
      const input = decodeBody(couponBody(tx.settings.currency), body);
      if (!input.ok) return input;
      const coupon = buildCoupon(tx, family, input.value, undefined);
      if (!coupon.ok) return coupon;
      return reply(201, oneCoupon(tx.put('coupons', coupon.value)));
    },
  },
  {
    method: 'GET',
    path: '/product_families/{product_family_id}/coupons/{coupon_id}.json',
    run: (context) => withFamilyCoupon(context, (_family, coupon) => reply(200, oneCoupon(coupon))),
  },
  {
    method: 'GET',
    path: '/coupons/{coupon_id}.json',
    run: ({ tx, params }) => {
      const coupon = findCoupon(tx, params['coupon_id'] ?? '');
      if (coupon === undefined) return err(missing('Coupon'));
      return reply(200, oneCoupon(coupon));
    },
  },
  {
    method: 'PUT',
    path: '/product_families/{product_family_id}/coupons/{coupon_id}.json',
    // The shape is the same in every currency; only its decimal limits differ.
    body: couponBody('USD'),
    run: (context) =>
      withFamilyCoupon(context, (family, coupon) => {
        const { tx } = context;
        const input = decodeBody(couponBody(tx.settings.currency), context.body);
        if (!input.ok) return input;
        const updated = buildCoupon(tx, family, input.value, coupon);
        if (!updated.ok) return updated;
        return reply(200, oneCoupon(tx.put('coupons', updated.value)));
      }),
  },
  {
    method: 'DELETE',
    path: '/product_families/{product_family_id}/coupons/{coupon_id}.json',
    run: (context) =>
      withFamilyCoupon(context, (_family, coupon) => {
        const { tx } = context;
        const archived =
          coupon.archivedAt === null
            ? tx.put('coupons', { ...coupon, archivedAt: tx.now, updatedAt: tx.now })
            : coupon;
        return reply(200, oneCoupon(archived));
      }),
  },
  {
    method: 'GET',
    path: '/coupons.json',
    query: COUPON_LIST_QUERY,
    run: ({ tx, query }) => listCoupons(tx, query, null),
  },
  {
    method: 'GET',
    path: '/product_families/{product_family_id}/coupons.json',
    query: COUPON_LIST_QUERY,
    run: ({ tx, params, query }) => {
      const family = findFamily(tx, params['product_family_id'] ?? '');
      if (family === undefined) return err(missing('Product family'));
      return listCoupons(tx, query, family.id);
    },
  },
] as const satisfies readonly Route[];
