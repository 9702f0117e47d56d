/** Shared setup of the coupon tests. */
import { num, type Site } from '../../helpers/api.js';

export const percentCoupon = {
  name: 'Ten percent',
  code: 'ten-off',
  description: 'Ten off',
  percentage: '10',
};

/** A family with a product `gold` and a quantity component `seats`. */
export function catalog(s: Site) {
  const family = s.family('plans');
  const product = s.product({ handle: 'gold', name: 'Gold' }, family);
  const component = num(
    s.ok('POST', `/product_families/${family}/quantity_based_components.json`, {
      quantity_based_component: {
        name: 'Seats',
        handle: 'seats',
        unit_name: 'seat',
        pricing_scheme: 'per_unit',
        unit_price: 1,
      },
    }),
    'component',
    'id',
  );
  return { family, product, component };
}

export const create = (s: Site, family: number | string, body: unknown) =>
  s.ok('POST', `/product_families/${family}/coupons.json`, body);
