/** Product price points: create, read, list, update, archive, unarchive, make default. */

import type { Product, ProductPricePoint } from '../../domain/catalog/types.js';
import type { SiteState } from '../../engine/state.js';
import type { Transaction } from '../../engine/transaction.js';
import { indexGet, tableRows } from '../../kernel/collection.js';
import { err } from '../../kernel/result.js';
import { decodeBody, findRef, handleProblem, missing, stamp } from '../common.js';
import { schemaPerKey, z, zText } from '../decode.js';
import { type Route, type RouteContext, type RouteResult, reply } from '../route.js';
import { presentPricing, pricingFields, resolvePricing } from './product-pricing.js';
import { findProduct, presentProduct } from './products.js';

export function presentProductPricePoint(state: SiteState, pricePoint: ProductPricePoint) {
  return {
    id: pricePoint.id,
    name: pricePoint.name,
    handle: pricePoint.handle,
    ...presentPricing(state, pricePoint),
    product_id: pricePoint.productId,
    archived_at: stamp(state, pricePoint.archivedAt),
    created_at: stamp(state, pricePoint.createdAt),
    updated_at: stamp(state, pricePoint.updatedAt),
    use_site_exchange_rate: true,
    type: pricePoint.type,
    tax_included: false,
    subscription_id: null,
    currency_prices: [],
  };
}

/** A product's price point by id or `handle:`. */
export const findProductPricePoint = (
  tx: Transaction,
  product: Product,
  ref: string,
): ProductPricePoint | undefined => {
  const pricePoint = findRef(
    tx,
    'productPricePoints',
    ref,
    'productPricePointHandles',
    (handle) => `${product.id}/${handle}`,
  );
  return pricePoint?.productId === product.id ? pricePoint : undefined;
};

const body = schemaPerKey((currency) =>
  z.object({
    price_point: z.object({
      name: zText().min(1, 'cannot be blank').optional(),
      handle: zText().nullish(),
      ...pricingFields(currency),
    }),
  }),
);

type Found = { product: Product; pricePoint: ProductPricePoint };

function withPricePoint<T>(context: RouteContext, then: (found: Found) => RouteResult<T>): RouteResult<T> {
  const product = findProduct(context.tx, context.params['product_id'] ?? '');
  if (product === undefined) return err(missing('Product'));
  const pricePoint = findProductPricePoint(context.tx, product, context.params['price_point_id'] ?? '');
  if (pricePoint === undefined) return err(missing('Price point'));
  return then({ product, pricePoint });
}

function checkHandle(
  tx: Transaction,
  productId: number,
  handle: string | null,
  selfId: number | null,
): RouteResult<never> | undefined {
  if (handle === null) return undefined;
  const owner = indexGet(tx.state.indexes.productPricePointHandles, `${productId}/${handle}`);
  const problem = handleProblem('Handle', handle, owner, selfId);
  return problem === undefined ? undefined : err(problem);
}

const one = (pricePoint: ProductPricePoint) => (state: SiteState) => ({
  price_point: presentProductPricePoint(state, pricePoint),
});

/** A route served under PUT and PATCH alike, each keeping its path's and answer's types. */
function putOrPatch<const P extends string, R extends Route['run']>(path: P, run: R) {
  return [
    { method: 'PUT', path, run },
    { method: 'PATCH', path, run },
  ] as const;
}

/** Unarchives a price point (`PUT` or `PATCH …/unarchive.json`). */
const unarchive = (context: RouteContext) =>
  withPricePoint(context, ({ pricePoint }) => {
    const restored = context.tx.put('productPricePoints', {
      ...pricePoint,
      archivedAt: null,
      updatedAt: context.tx.now,
    });
    return reply(200, one(restored));
  });

/** Makes a price point its product's default (`PUT` or `PATCH …/default.json`). */
const makeDefault = (context: RouteContext) =>
  withPricePoint(context, ({ product, pricePoint }) => {
    const { tx } = context;
    if (pricePoint.archivedAt !== null)
      return err({
        code: 'archived',
        status: 422,
        message: 'An archived price point cannot be the default.',
      });
    if (product.defaultPricePointId === pricePoint.id)
      return reply(200, (state) => ({ product: presentProduct(state, product) }));
    const updated = tx.put('products', {
      ...product,
      defaultPricePointId: pricePoint.id,
      versionNumber: product.versionNumber + 1,
      updatedAt: tx.now,
    });
    return reply(200, (state) => ({ product: presentProduct(state, updated) }));
  });

export const productPricePointRoutes = [
  {
    method: 'POST',
    path: '/products/{product_id}/price_points.json',
    // The shape is the same in every currency; only its decimal limits differ.
    body: body('USD'),
    run: ({ tx, params, body: raw }) => {
      const product = findProduct(tx, params['product_id'] ?? '');
      if (product === undefined) return err(missing('Product'));
      const input = decodeBody(body(tx.settings.currency), raw);
      if (!input.ok) return input;
      const fields = input.value.price_point;
      if (fields.name === undefined)
        return err({ code: 'blank_name', status: 422, message: 'Name: cannot be blank.' });
      const handle = fields.handle ?? null;
      const handleError = checkHandle(tx, product.id, handle, null);
      if (handleError) return handleError;
      const pricing = resolvePricing(fields, undefined);
      if (!pricing.ok) return pricing;
      const pricePoint = tx.put('productPricePoints', {
        id: tx.nextId('productPricePoints'),
        productId: product.id,
        name: fields.name,
        handle,
        type: 'catalog',
        ...pricing.value,
        archivedAt: null,
        createdAt: tx.now,
        updatedAt: tx.now,
      });
      return reply(201, one(pricePoint));
    },
  },
  {
    method: 'GET',
    path: '/products/{product_id}/price_points.json',
    query: ['filter.archived_at'],
    run: ({ tx, params, query }) => {
      const product = findProduct(tx, params['product_id'] ?? '');
      if (product === undefined) return err(missing('Product'));
      const archived = query.get('filter.archived_at') === 'not_null';
      const points = [...tableRows(tx.state.tables.productPricePoints)].filter(
        (point) =>
          point.productId === product.id &&
          (archived ? point.archivedAt !== null : point.archivedAt === null),
      );
      return reply(200, (state) => ({
        price_points: points.map((point) => presentProductPricePoint(state, point)),
      }));
    },
  },
  {
    method: 'GET',
    path: '/products/{product_id}/price_points/{price_point_id}.json',
    run: (context) => withPricePoint(context, ({ pricePoint }) => reply(200, one(pricePoint))),
  },
  {
    method: 'PUT',
    path: '/products/{product_id}/price_points/{price_point_id}.json',
    // The shape is the same in every currency; only its decimal limits differ.
    body: body('USD'),
    run: (context) =>
      withPricePoint(context, ({ product, pricePoint }) => {
        const { tx } = context;
        const input = decodeBody(body(tx.settings.currency), context.body);
        if (!input.ok) return input;
        const fields = input.value.price_point;
        const handle = fields.handle === undefined ? pricePoint.handle : fields.handle;
        const handleError = checkHandle(tx, product.id, handle, pricePoint.id);
        if (handleError) return handleError;
        const pricing = resolvePricing(fields, pricePoint);
        if (!pricing.ok) return pricing;
        if (
          product.defaultPricePointId === pricePoint.id &&
          JSON.stringify({ ...pricePoint, ...pricing.value }) !== JSON.stringify(pricePoint)
        ) {
          tx.put('products', { ...product, versionNumber: product.versionNumber + 1, updatedAt: tx.now });
        }
        const updated = tx.put('productPricePoints', {
          ...pricePoint,
          ...pricing.value,
          name: fields.name ?? pricePoint.name,
          handle,
          updatedAt: tx.now,
        });
        return reply(200, one(updated));
      }),
  },
  {
    method: 'DELETE',
    path: '/products/{product_id}/price_points/{price_point_id}.json',
    run: (context) =>
      withPricePoint(context, ({ product, pricePoint }) => {
        if (product.defaultPricePointId === pricePoint.id) {
          return err({
            code: 'default_price_point',
            status: 422,
            message: 'The default price point cannot be archived.',
          });
        }
        const archived =
          pricePoint.archivedAt === null
            ? context.tx.put('productPricePoints', {
                ...pricePoint,
                archivedAt: context.tx.now,
                updatedAt: context.tx.now,
              })
            : pricePoint;
        return reply(200, one(archived));
      }),
  },
  // The official SDK sends PATCH for unarchive and default; the API description writes PUT: both are served.
  ...putOrPatch('/products/{product_id}/price_points/{price_point_id}/unarchive.json', unarchive),
  ...putOrPatch('/products/{product_id}/price_points/{price_point_id}/default.json', makeDefault),
] as const satisfies readonly Route[];
