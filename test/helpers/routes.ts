/**
 * Generated requests for property tests: the route table as templates, with placeholders filled by real
 * ids and hostile text and bodies aimed at each route's fields.
 */
import fc from 'fast-check';
import { routes as servedRoutes } from '../../src/api/routes.js';
import type { Method } from './api.js';

/** Every route: method, path template, the body envelope and its field names. */
export const ROUTES: readonly {
  method: Method;
  path: string;
  envelope?: string;
  fields?: readonly string[];
}[] = [
  { method: 'GET', path: '/product_families.json' },
  {
    method: 'POST',
    path: '/product_families.json',
    envelope: 'product_family',
    fields: ['name', 'handle', 'description', 'accounting_code'],
  },
  { method: 'GET', path: '/product_families/{id}.json' },
  { method: 'GET', path: '/product_families/{id}/products.json' },
  {
    method: 'POST',
    path: '/product_families/{id}/products.json',
    envelope: 'product',
    fields: productFields(),
  },
  { method: 'GET', path: '/products.json' },
  { method: 'GET', path: '/products/{id}.json' },
  { method: 'PUT', path: '/products/{id}.json', envelope: 'product', fields: productFields() },
  { method: 'DELETE', path: '/products/{id}.json' },
  { method: 'GET', path: '/products/handle/{id}.json' },
  { method: 'GET', path: '/products/{id}/price_points.json' },
  {
    method: 'POST',
    path: '/products/{id}/price_points.json',
    envelope: 'price_point',
    fields: pricingFields(),
  },
  { method: 'GET', path: '/products/{id}/price_points/{id}.json' },
  {
    method: 'PUT',
    path: '/products/{id}/price_points/{id}.json',
    envelope: 'price_point',
    fields: pricingFields(),
  },
  { method: 'DELETE', path: '/products/{id}/price_points/{id}.json' },
  { method: 'PUT', path: '/products/{id}/price_points/{id}/unarchive.json' },
  { method: 'PUT', path: '/products/{id}/price_points/{id}/default.json' },
  { method: 'GET', path: '/customers.json' },
  { method: 'POST', path: '/customers.json', envelope: 'customer', fields: customerFields() },
  { method: 'GET', path: '/customers/lookup.json' },
  { method: 'GET', path: '/customers/{id}.json' },
  { method: 'PUT', path: '/customers/{id}.json', envelope: 'customer', fields: customerFields() },
  { method: 'DELETE', path: '/customers/{id}.json' },
  { method: 'GET', path: '/customers/{id}/subscriptions.json' },
  { method: 'GET', path: '/payment_profiles.json' },
  {
    method: 'POST',
    path: '/payment_profiles.json',
    envelope: 'payment_profile',
    fields: ['customer_id', ...paymentFields()],
  },
  { method: 'GET', path: '/payment_profiles/{id}.json' },
  { method: 'DELETE', path: '/payment_profiles/{id}.json' },
  { method: 'GET', path: '/subscriptions.json' },
  { method: 'POST', path: '/subscriptions.json', envelope: 'subscription', fields: subscriptionFields() },
  { method: 'GET', path: '/subscriptions/{id}.json' },
  {
    method: 'DELETE',
    path: '/subscriptions/{id}.json',
    envelope: 'subscription',
    fields: ['cancellation_message', 'reason_code'],
  },
  { method: 'GET', path: '/invoices.json' },
  { method: 'GET', path: '/invoices/{id}.json' },
  { method: 'POST', path: '/reason_codes.json', envelope: 'reason_code', fields: reasonCodeFields() },
  { method: 'PUT', path: '/reason_codes/{id}.json', envelope: 'reason_code', fields: reasonCodeFields() },
  { method: 'POST', path: '/offers.json', envelope: 'offer', fields: offerFields() },
  { method: 'GET', path: '/offers/{id}.json' },
  { method: 'PUT', path: '/offers/{id}/archive.json' },
  { method: 'PUT', path: '/offers/{id}/unarchive.json' },
  { method: 'GET', path: '/components_price_points.json' },
  { method: 'GET', path: '/products_price_points.json' },
  { method: 'GET', path: '/subscriptions_components.json' },
  {
    method: 'POST',
    path: '/subscriptions/{id}/price_points.json',
    envelope: 'components',
    fields: ['component_id', 'price_point'],
  },
  { method: 'POST', path: '/subscriptions/{id}/price_points/reset.json' },
];

function offerFields(): string[] {
  return ['name', 'handle', 'description', 'product_id', 'product_price_point_id', 'components', 'coupons'];
}

function reasonCodeFields(): string[] {
  return ['code', 'description', 'position'];
}

function pricingFields(): string[] {
  return [
    'name',
    'handle',
    'price_in_cents',
    'interval',
    'interval_unit',
    'initial_charge_in_cents',
    'trial_price_in_cents',
    'trial_interval',
    'trial_interval_unit',
    'expiration_interval',
    'expiration_interval_unit',
  ];
}
function productFields(): string[] {
  return [
    ...pricingFields(),
    'description',
    'accounting_code',
    'require_credit_card',
    'request_credit_card',
    'taxable',
    'tax_code',
    'initial_charge_after_trial',
  ];
}
function customerFields(): string[] {
  return [
    'first_name',
    'last_name',
    'email',
    'cc_emails',
    'organization',
    'reference',
    'address',
    'address_2',
    'city',
    'state',
    'zip',
    'country',
    'phone',
    'locale',
    'vat_number',
    'tax_exempt',
    'tax_exempt_reason',
    'parent_id',
    'salesforce_id',
    'verified',
  ];
}
function paymentFields(): string[] {
  return [
    'payment_type',
    'first_name',
    'last_name',
    'full_number',
    'card_type',
    'expiration_month',
    'expiration_year',
    'cvv',
    'bank_name',
    'bank_routing_number',
    'bank_account_number',
    'bank_account_type',
    'bank_account_holder_type',
  ];
}
function subscriptionFields(): string[] {
  return [
    'product_id',
    'product_handle',
    'product_price_point_id',
    'product_price_point_handle',
    'customer_id',
    'customer_reference',
    'customer_attributes',
    'payment_profile_id',
    'credit_card_attributes',
    'bank_account_attributes',
    'payment_collection_method',
    'reference',
    'net_terms',
  ];
}

/** Path parameters: real ids and handles of `catalogSite`, and hostile text. */
export const segmentArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('1', '2', '3', '4', 'handle:basic') },
  fc.constantFrom(
    '1',
    '2',
    '3',
    '4',
    '99',
    '0',
    '-1',
    '1.5',
    '1e3',
    'handle:basic',
    'handle%3Agold',
    'basic',
    'gold',
    'lookup',
  ),
  fc.constantFrom(
    'inv_0000000000001',
    'inv_0000000000004',
    '__proto__',
    'constructor',
    'handle:__proto__',
    'handle:',
    '%00',
  ),
  fc.webSegment(),
  fc.string({ maxLength: 12 }),
);

/** A valid body of each envelope, which generated fields then override. */
const VALID: Readonly<Record<string, Record<string, unknown>>> = {
  product_family: { name: 'New family', handle: 'new-family' },
  product: { name: 'New product', price_in_cents: 1000, interval: 1, interval_unit: 'month' },
  price_point: {
    name: 'New point',
    handle: 'new-point',
    price_in_cents: 1000,
    interval: 1,
    interval_unit: 'month',
  },
  customer: { first_name: 'A', last_name: 'B', email: 'a@b.co' },
  payment_profile: {
    customer_id: 1,
    full_number: '4111111111111111',
    expiration_month: 1,
    expiration_year: 2030,
  },
  subscription: { product_id: 1, customer_id: 1, payment_profile_id: 1 },
};

/** A value for a field: plausible inputs, edge cases and arbitrary JSON. */
export const fieldValueArb: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    '1',
    '0',
    '-1',
    '',
    ' ',
    '1e3',
    '12.5',
    'true',
    'month',
    'day',
    'never',
    'remittance',
    'basic',
    'handle:basic',
  ),
  fc.constantFrom(
    '4111111111111111',
    '4111111111111112',
    '4111111111111113',
    'ref-1',
    'a@b.co',
    '021000021',
    'bank_account',
  ),
  fc.integer({ min: -2, max: 5 }),
  fc.constantFrom(1e20, -0, 0.5, Number.MAX_SAFE_INTEGER, null, true, false),
  fc.jsonValue({ maxDepth: 2 }),
  fc.dictionary(fc.constantFrom(...customerFields(), ...paymentFields()), fc.jsonValue({ maxDepth: 1 }), {
    maxKeys: 6,
  }),
);

/**
 * Every route the engine serves (src/api/routes.ts), described ones with their envelope and fields, the
 * others with their path parameters as `{id}` placeholders.
 */
export const ALL_ROUTES: typeof ROUTES = servedRoutes.map((route) => {
  const path = route.path.replace(/\{[^}]+\}/g, '{id}').replace(/\?$/, '');
  return (
    ROUTES.find((known) => known.method === route.method && known.path === path) ?? {
      method: route.method,
      path,
    }
  );
});

/** A request to a route, its placeholders filled and its body aimed at its fields. */
export const routeRequestArb: fc.Arbitrary<{ method: string; path: string; body: unknown }> = fc
  .tuple(
    fc.constantFrom(...ALL_ROUTES),
    fc.array(segmentArb, { minLength: 2, maxLength: 2 }),
    fc.oneof({ weight: 3, arbitrary: fc.constant('') }, fc.webQueryParameters()),
  )
  .chain(([route, [a, b], query]) => {
    const path = route.path
      .replace('{id}', encodeURIComponent(a ?? ''))
      .replace('{id}', encodeURIComponent(b ?? ''));
    const withQuery = query.length > 0 ? `${path}?${query}` : path;
    const fields = route.fields ?? ['name', 'id'];
    const envelope = route.envelope ?? 'x';
    const valid = (route.envelope === undefined ? undefined : VALID[route.envelope]) ?? {};
    const fieldsArb = (maxKeys: number) =>
      fc.dictionary(fc.constantFrom(...fields), fieldValueArb, { maxKeys });
    const body = fc.oneof(
      { weight: 2, arbitrary: fc.constant({ [envelope]: valid }) },
      { weight: 3, arbitrary: fieldsArb(2).map((inner) => ({ [envelope]: { ...valid, ...inner } })) },
      { weight: 1, arbitrary: fieldsArb(8).map((inner) => ({ [envelope]: inner })) },
      { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
      { weight: 1, arbitrary: fc.constant(undefined) },
    );
    return body.map((generated) => ({ method: route.method, path: withQuery, body: generated }));
  });
