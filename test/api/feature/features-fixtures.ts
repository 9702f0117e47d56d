/** Shared setup of the feature catalog tests. */
import { num, type Site } from '../../helpers/api.js';

/** Templates: 1 access right `sso`, 2 usage limit `api_calls` (1000 a month), 3 text service right. */
export function templates(s: Site) {
  const create = (feature: Record<string, unknown>) =>
    num(s.ok('POST', '/features.json', { feature }), 'feature', 'id');
  return {
    sso: create({ key: 'sso', name: 'SSO', kind: 'access_right' }),
    calls: create({
      key: 'api_calls',
      name: 'API calls',
      kind: 'usage_limit',
      unit: 'requests',
      default_value: '1000',
      default_periodicity_interval: 1,
      default_periodicity_unit: 'month',
    }),
    support: create({ key: 'support', name: 'Support', kind: 'service_right', value_type: 'text' }),
  };
}

/** A quantity-based component; returns its id and default price point id. */
export function component(s: Site, family: number, handle: string) {
  const body = s.ok('POST', `/product_families/${family}/quantity_based_components.json`, {
    quantity_based_component: {
      name: handle,
      handle,
      unit_name: 'seat',
      pricing_scheme: 'per_unit',
      unit_price: 1,
    },
  });
  return { id: num(body, 'component', 'id'), pricePoint: num(body, 'component', 'default_price_point_id') };
}
