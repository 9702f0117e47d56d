/**
 * Coupons on a live subscription: `POST …/add_coupon.json` (codes in the body are added; the deprecated
 * `code` query parameter replaces them) and `DELETE …/remove_coupon.json?coupon_code=`.
 */

import { addCoupons, removeCoupon } from '../../engine/subscription/coupons.js';
import { err } from '../../kernel/result.js';
import { decodeBody, missing } from '../common.js';
import { z, zText } from '../decode.js';
import { type Route, reply } from '../route.js';
import { presentSubscription } from './subscription-present.js';
import { findSubscription } from './subscriptions.js';

const addBody = z.object({ codes: z.array(zText()).max(100).optional() }).optional();

const normal = (code: string) => code.trim().toUpperCase();

export const subscriptionCouponRoutes = [
  {
    method: 'POST',
    path: '/subscriptions/{subscription_id}/add_coupon.json',
    query: ['code'],
    body: addBody,
    errorShape: 'field-map',
    run: ({ tx, params, query, body }) => {
      const subscription = findSubscription(tx, params['subscription_id'] ?? '');
      if (subscription === undefined) return err(missing('Subscription'));
      const input = decodeBody(addBody, body);
      if (!input.ok) return input;
      const replacing = query.get('code');
      const codes = replacing === undefined ? (input.value?.codes ?? []).map(normal) : [normal(replacing)];
      const added = addCoupons(tx, subscription, codes, replacing !== undefined);
      if (!added.ok) return added;
      return reply(200, (state) => ({ subscription: presentSubscription(state, added.value) }));
    },
  },
  {
    method: 'DELETE',
    path: '/subscriptions/{subscription_id}/remove_coupon.json',
    query: ['coupon_code'],
    errorShape: 'field-map',
    run: ({ tx, params, query }) => {
      const subscription = findSubscription(tx, params['subscription_id'] ?? '');
      if (subscription === undefined) return err(missing('Subscription'));
      const code = query.get('coupon_code');
      const removed = removeCoupon(tx, subscription, code === undefined || code === '' ? null : normal(code));
      if (!removed.ok) return removed;
      return reply(200, () => 'Coupon successfully removed');
    },
  },
] as const satisfies readonly Route[];
