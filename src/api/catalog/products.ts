/** Products: create in a family, read by id or handle, list, update, archive. */

import type { Product, ProductPricing } from '../../domain/catalog/types.js';
import type { SiteState } from '../../engine/state.js';
import type { Transaction } from '../../engine/transaction.js';
import { indexGet, tableGet, tableRows } from '../../kernel/collection.js';
import { err } from '../../kernel/result.js';
import { decodeBody, findRef, handleProblem, missing, pageOf, paging, stamp } from '../common.js';
import { schemaPerKey, z, zBool, zText } from '../decode.js';
import { type Route, reply } from '../route.js';
import { presentProductFamily } from './product-families.js';
import { presentPricing, pricingFields, resolvePricing } from './product-pricing.js';

export function presentProduct(state: SiteState, product: Product) {
  const family = tableGet(state.tables.productFamilies, product.productFamilyId);
  const pricePoint = tableGet(state.tables.productPricePoints, product.defaultPricePointId);
  // Field by field rather than `...pricing` into the literal (a slow path in V8); a product without a price
  // point leaves them undefined, which JSON omits as the spread did.
  const pricing = pricePoint ? presentPricing(state, pricePoint) : undefined;
  return {
    id: product.id,
    name: product.name,
    handle: product.handle,
    description: product.description,
    accounting_code: product.accountingCode,
    request_credit_card: product.requestCreditCard,
    require_credit_card: product.requireCreditCard,
    price_in_cents: pricing?.price_in_cents,
    interval: pricing?.interval,
    interval_unit: pricing?.interval_unit,
    initial_charge_in_cents: pricing?.initial_charge_in_cents,
    trial_price_in_cents: pricing?.trial_price_in_cents,
    trial_interval: pricing?.trial_interval,
    trial_interval_unit: pricing?.trial_interval_unit,
    expiration_interval: pricing?.expiration_interval,
    expiration_interval_unit: pricing?.expiration_interval_unit,
    created_at: stamp(state, product.createdAt),
    updated_at: stamp(state, product.updatedAt),
    archived_at: stamp(state, product.archivedAt),
    taxable: product.taxable,
    tax_code: product.taxCode,
    initial_charge_after_trial: product.initialChargeAfterTrial,
    version_number: product.versionNumber,
    return_params: null,
    update_return_url: null,
    update_return_params: null,
    product_family: family ? presentProductFamily(state, family) : null,
    public_signup_pages: [],
    product_price_point_name: pricePoint?.name ?? 'Default',
    default_product_price_point_id: product.defaultPricePointId,
    product_price_point_id: product.defaultPricePointId,
    product_price_point_handle: pricePoint?.handle ?? null,
  };
}

const productFields = (currency: string) => ({
  name: zText().min(1, 'cannot be blank').optional(),
  handle: zText().nullish(),
  description: zText(10_000).nullish(),
  accounting_code: zText().nullish(),
  require_credit_card: zBool().optional(),
  request_credit_card: zBool().optional(),
  taxable: zBool().optional(),
  tax_code: zText().nullish(),
  initial_charge_after_trial: zBool().optional(),
  ...pricingFields(currency),
});

const productBody = schemaPerKey((currency) => z.object({ product: z.object(productFields(currency)) }));

/** Why a product's handle cannot be used, if it cannot. */
const handleError = (tx: Transaction, handle: string | null, selfId: number | null) => {
  if (handle === null) return undefined;
  const problem = handleProblem(
    'API Handle',
    handle,
    indexGet(tx.state.indexes.productHandles, handle),
    selfId,
  );
  return problem === undefined ? undefined : err(problem);
};

const pricingChanged = (before: ProductPricing, after: ProductPricing) =>
  JSON.stringify(before) !== JSON.stringify(after);

/** Finds a product by id or `handle:`. */
export const findProduct = (tx: Transaction, ref: string) => findRef(tx, 'products', ref, 'productHandles');

export const productRoutes = [
  {
    method: 'POST',
    path: '/product_families/{product_family_id}/products.json',
    // The shape is the same in every currency; only its decimal limits differ.
    body: productBody('USD'),
    run: ({ tx, params, body }) => {
      const family = findRef(
        tx,
        'productFamilies',
        params['product_family_id'] ?? '',
        'productFamilyHandles',
      );
      if (family === undefined) return err(missing('Product family'));
      const input = decodeBody(productBody(tx.settings.currency), body);
      if (!input.ok) return input;
      const fields = input.value.product;
      if (fields.name === undefined)
        return err({ code: 'blank_name', status: 422, message: 'Name: cannot be blank.' });
      const handle = fields.handle ?? null;
      const handleRefused = handleError(tx, handle, null);
      if (handleRefused !== undefined) return handleRefused;
      const pricing = resolvePricing(fields, undefined);
      if (!pricing.ok) return pricing;
      const productId = tx.nextId('products');
      const pricePointId = tx.nextId('productPricePoints');
      tx.put('productPricePoints', {
        id: pricePointId,
        productId,
        name: 'Default',
        handle: null,
        type: 'default',
        ...pricing.value,
        archivedAt: null,
        createdAt: tx.now,
        updatedAt: tx.now,
      });
      const product = tx.put('products', {
        id: productId,
        productFamilyId: family.id,
        name: fields.name,
        handle,
        description: fields.description ?? null,
        accountingCode: fields.accounting_code ?? null,
        requireCreditCard: fields.require_credit_card ?? false,
        requestCreditCard: fields.request_credit_card ?? fields.require_credit_card ?? false,
        taxable: fields.taxable ?? false,
        taxCode: fields.tax_code ?? null,
        initialChargeAfterTrial: fields.initial_charge_after_trial ?? false,
        versionNumber: 1,
        defaultPricePointId: pricePointId,
        archivedAt: null,
        createdAt: tx.now,
        updatedAt: tx.now,
      });
      return reply(201, (state) => ({ product: presentProduct(state, product) }));
    },
  },
  {
    method: 'GET',
    path: '/products.json',
    query: ['page', 'per_page', 'include_archived'],
    run: ({ tx, query }) => listProducts(tx, query.get('include_archived') === 'true', query, null),
  },
  {
    method: 'GET',
    path: '/product_families/{product_family_id}/products.json',
    query: ['page', 'per_page', 'include_archived'],
    run: ({ tx, params, query }) => {
      const family = findRef(
        tx,
        'productFamilies',
        params['product_family_id'] ?? '',
        'productFamilyHandles',
      );
      if (family === undefined) return err(missing('Product family'));
      return listProducts(tx, query.get('include_archived') === 'true', query, family.id);
    },
  },
  {
    method: 'GET',
    path: '/products/{product_id}.json',
    run: ({ tx, params }) => {
      const product = findProduct(tx, params['product_id'] ?? '');
      if (product === undefined) return err(missing('Product'));
      return reply(200, (state) => ({ product: presentProduct(state, product) }));
    },
  },
  {
    method: 'GET',
    path: '/products/handle/{api_handle}.json',
    run: ({ tx, params }) => {
      const product = findRef(tx, 'products', `handle:${params['api_handle'] ?? ''}`, 'productHandles');
      if (product === undefined) return err(missing('Product'));
      return reply(200, (state) => ({ product: presentProduct(state, product) }));
    },
  },
  {
    method: 'PUT',
    path: '/products/{product_id}.json',
    // The shape is the same in every currency; only its decimal limits differ.
    body: productBody('USD'),
    run: ({ tx, params, body }) => {
      const product = findProduct(tx, params['product_id'] ?? '');
      if (product === undefined) return err(missing('Product'));
      const input = decodeBody(productBody(tx.settings.currency), body);
      if (!input.ok) return input;
      const fields = input.value.product;
      const handle = fields.handle === undefined ? product.handle : fields.handle;
      const handleRefused = handleError(tx, handle, product.id);
      if (handleRefused !== undefined) return handleRefused;
      const pricePoint = tx.get('productPricePoints', product.defaultPricePointId);
      if (pricePoint === undefined) return err(missing('Price point'));
      const pricing = resolvePricing(fields, pricePoint);
      if (!pricing.ok) return pricing;
      const repriced = pricingChanged(pricePoint, { ...pricePoint, ...pricing.value });
      if (repriced) tx.put('productPricePoints', { ...pricePoint, ...pricing.value, updatedAt: tx.now });
      const updated = tx.put('products', {
        ...product,
        name: fields.name ?? product.name,
        handle,
        description: fields.description === undefined ? product.description : fields.description,
        accountingCode:
          fields.accounting_code === undefined ? product.accountingCode : fields.accounting_code,
        requireCreditCard: fields.require_credit_card ?? product.requireCreditCard,
        requestCreditCard: fields.request_credit_card ?? product.requestCreditCard,
        taxable: fields.taxable ?? product.taxable,
        taxCode: fields.tax_code === undefined ? product.taxCode : fields.tax_code,
        initialChargeAfterTrial: fields.initial_charge_after_trial ?? product.initialChargeAfterTrial,
        versionNumber: repriced ? product.versionNumber + 1 : product.versionNumber,
        updatedAt: tx.now,
      });
      return reply(200, (state) => ({ product: presentProduct(state, updated) }));
    },
  },
  {
    method: 'DELETE',
    path: '/products/{product_id}.json',
    run: ({ tx, params }) => {
      const product = findProduct(tx, params['product_id'] ?? '');
      if (product === undefined) return err(missing('Product'));
      const archived =
        product.archivedAt === null
          ? tx.put('products', { ...product, archivedAt: tx.now, updatedAt: tx.now })
          : product;
      return reply(200, (state) => ({ product: presentProduct(state, archived) }));
    },
  },
] as const satisfies readonly Route[];

function listProducts(
  tx: Transaction,
  includeArchived: boolean,
  query: Parameters<typeof paging>[0],
  familyId: number | null,
) {
  const page = paging(query);
  if (!page.ok) return page;
  const matching = function* () {
    for (const product of tableRows(tx.state.tables.products)) {
      if (!includeArchived && product.archivedAt !== null) continue;
      if (familyId !== null && product.productFamilyId !== familyId) continue;
      yield product;
    }
  };
  const products = pageOf(matching(), page.value.page, page.value.perPage);
  return reply(200, (state) => products.map((product) => ({ product: presentProduct(state, product) })));
}
