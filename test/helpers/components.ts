/**
 * Fixtures for component, price point and segment tests through `handle()`: a site with event-based
 * billing metrics, a minimal valid create body for each kind, and the paths of an event-based
 * component's price point and its segments.
 */
import type { SiteConfig } from '../../src/index.js';
import { num, type Site, site } from './api.js';

export const KINDS = [
  'quantity_based_component',
  'on_off_component',
  'metered_component',
  'prepaid_usage_component',
  'event_based_component',
] as const;

export type Kind = (typeof KINDS)[number];

/** The path segment that creates each kind in a family. */
export const PLURAL: Readonly<Record<Kind, string>> = {
  quantity_based_component: 'quantity_based_components',
  on_off_component: 'on_off_components',
  metered_component: 'metered_components',
  prepaid_usage_component: 'prepaid_usage_components',
  event_based_component: 'event_based_components',
};

/** The site's metrics: 7 counts API calls, 8 sums bytes. */
export const METRICS: NonNullable<SiteConfig['metrics']> = [
  { id: 7, name: 'API calls', streamHandle: 'api-calls', aggregation: 'count' },
  { id: 8, name: 'Bytes', streamHandle: 'bytes', aggregation: 'sum', property: 'bytes' },
];

/** A site that knows the metrics. */
export const componentSite = (config: SiteConfig = {}, now?: string): Site =>
  site({ metrics: METRICS, ...config }, now);

/** The smallest valid fields of a kind: per_unit at $1, with overage or a metric where the kind needs it. */
export function minimalFields(kind: Kind): Record<string, unknown> {
  const base: Record<string, unknown> = {
    name: `A ${kind}`,
    unit_name: 'unit',
    pricing_scheme: 'per_unit',
    unit_price: '1',
  };
  if (kind === 'prepaid_usage_component')
    return {
      ...base,
      overage_pricing: { pricing_scheme: 'per_unit', prices: [{ starting_quantity: 1, unit_price: '2' }] },
    };
  if (kind === 'event_based_component') return { ...base, event_based_billing_metric_id: 7 };
  if (kind === 'on_off_component') return { name: 'An on/off component', unit_price: '1' };
  return base;
}

/** The path that creates a kind in a family (an id or `handle:...`). */
export const createPath = (kind: Kind, family: number | string): string =>
  `/product_families/${family}/${PLURAL[kind]}.json`;

/** Creates a component (fields over the minimal ones) in a family (a new one when absent); returns its id. */
export function createComponent(
  s: Site,
  kind: Kind,
  fields: Record<string, unknown> = {},
  family?: number,
): number {
  const familyId = family ?? s.family();
  const body = s.ok('POST', createPath(kind, familyId), { [kind]: { ...minimalFields(kind), ...fields } });
  return num(body, 'component', 'id');
}

/** The ids of a listing answer `[{component}, ...]`. */
export const componentIds = (body: unknown): number[] =>
  (Array.isArray(body) ? body : []).map((item) => num(item, 'component', 'id'));

/** An event-based component and its default price point, with the segment paths. */
export function segmented(s: Site, fields: Record<string, unknown> = {}) {
  const component = createComponent(s, 'event_based_component', fields);
  const pricePoint = num(s.ok('GET', `/components/${component}.json`), 'component', 'default_price_point_id');
  const base = `/components/${component}/price_points/${pricePoint}/segments`;
  return { component, pricePoint, base, bulk: `${base}/bulk.json`, list: `${base}.json` };
}

/** A valid segment request for values, priced per unit at `price`. */
export const segmentRecord = (values: readonly (string | number | boolean)[], price = '1') => ({
  ...Object.fromEntries(values.map((value, index) => [`segment_property_${index + 1}_value`, value])),
  pricing_scheme: 'per_unit',
  prices: [{ starting_quantity: 1, unit_price: price }],
});
