/** Component price points: create, read, list, update, archive, unarchive, make default. */

import type {
  Component,
  ComponentPricePoint,
  ComponentPricePointType,
} from '../../domain/catalog/component.js';
import { pricePointKey, setRows } from '../../engine/set-index.js';
import { err, ok, type Result } from '../../kernel/result.js';
import { missing, pageOf, paging } from '../common.js';
import { z } from '../decode.js';
import type { QueryParams } from '../query.js';
import { type Route, type RouteContext, type RouteError, type RouteResult, reply } from '../route.js';
import { buildPricePoint, pricePointFields, pricePointHandleProblem } from './components-input.js';
import {
  findComponent,
  findComponentPricePoint,
  presentComponent,
  presentComponentPricePoint,
} from './components-present.js';
import { asFieldMap, asList, decodeFields, problem, resolvePricing } from './price-points-input.js';

const createBody = z.object({ price_point: z.object(pricePointFields()) });
const updateBody = createBody;

/** The `currency_prices` flag of a read or a list. */
function currencyPricesFlag(query: QueryParams): Result<boolean, RouteError> {
  const text = query.get('currency_prices');
  if (text === undefined || text === '' || text === 'false' || text === '0') return ok(false);
  if (text === 'true' || text === '1') return ok(true);
  return err(asList(problem('currency_prices', 'must be true or false')));
}

type Found = { readonly component: Component; readonly point: ComponentPricePoint };

function withComponent<T>(
  context: RouteContext,
  then: (component: Component) => RouteResult<T>,
): RouteResult<T> {
  const component = findComponent(context.tx, context.params['component_id'] ?? '');
  return component === undefined ? err(missing('Component')) : then(component);
}

function withPricePoint<T>(context: RouteContext, then: (found: Found) => RouteResult<T>): RouteResult<T> {
  return withComponent(context, (component) => {
    const point = findComponentPricePoint(context.tx, component, context.params['price_point_id'] ?? '');
    return point === undefined ? err(missing('Price point')) : then({ component, point });
  });
}

const one = (point: ComponentPricePoint, currencyPrices = false) =>
  reply(200, (state) => ({ price_point: presentComponentPricePoint(state, point, currencyPrices) }));

function createPricePoint(context: RouteContext, component: Component) {
  const { tx } = context;
  const decoded = decodeFields(createBody, context.body, 'price_point');
  if (!decoded.ok) return decoded;
  const input = decoded.value.price_point;
  if (input.name === undefined) return err(asFieldMap(problem('name', 'is required')));
  const built = buildPricePoint(tx, component, input, input.name, 'catalog');
  if (!built.ok) return err(asFieldMap(built.error));
  const point = tx.put('componentPricePoints', { id: tx.nextId('componentPricePoints'), ...built.value });
  return reply(201, (state) => ({ price_point: presentComponentPricePoint(state, point) }));
}

function updatePricePoint(context: RouteContext, { component, point }: Found) {
  const { tx } = context;
  const decoded = decodeFields(updateBody, context.body, 'price_point');
  if (!decoded.ok) return decoded;
  const input = decoded.value.price_point;
  const handle = input.handle === undefined ? point.handle : input.handle;
  const handleProblem = pricePointHandleProblem(tx, component.id, handle, point.id);
  if (handleProblem) return err(asFieldMap(handleProblem));
  const pricing = resolvePricing(tx, component.kind, input, point);
  if (!pricing.ok) return err(asFieldMap(pricing.error));
  const updated = tx.put('componentPricePoints', {
    ...point,
    ...pricing.value,
    name: input.name ?? point.name,
    handle,
    updatedAt: tx.now,
  });
  if (component.defaultPricePointId === point.id) tx.put('components', { ...component, updatedAt: tx.now });
  return one(updated);
}

const TYPES: readonly ComponentPricePointType[] = ['catalog', 'default', 'custom'];

function listPricePoints(context: RouteContext, component: Component) {
  const { tx, query } = context;
  const page = paging(query);
  if (!page.ok) return page;
  const currencyPrices = currencyPricesFlag(query);
  if (!currencyPrices.ok) return currencyPrices;
  const types = query.list('filter.type');
  if (types.some((type) => !(TYPES as readonly string[]).includes(type)))
    return err(asList(problem('filter[type]', 'must list catalog, default or custom')));
  const archived = query.get('filter.archived_at') ?? 'null';
  if (archived !== 'null' && archived !== 'not_null')
    return err(asList(problem('filter[archived_at]', 'must be null or not_null')));
  // The component's own price points, from its set: the meta counts them all, so they are all read.
  const key = pricePointKey(component.id, archived === 'not_null');
  const matching = [
    ...setRows(tx.state, 'componentPricePoints', [key], 'componentPricePoints', 0, false),
  ].filter((point) => types.length === 0 || types.includes(point.type));
  const { page: number, perPage } = page.value;
  const points = pageOf(matching, number, perPage);
  return reply(200, (state) => ({
    price_points: points.map((point) => presentComponentPricePoint(state, point, currencyPrices.value)),
    meta: {
      total_count: matching.length,
      current_page: number,
      total_pages: Math.ceil(matching.length / perPage),
      per_page: perPage,
    },
  }));
}

const BASE = '/components/{component_id}/price_points';

export const componentPricePointRoutes = [
  {
    method: 'POST',
    path: `${BASE}.json`,
    body: createBody,
    errorShape: 'field-map',
    run: (c) => withComponent(c, (component) => createPricePoint(c, component)),
  },
  {
    method: 'GET',
    path: `${BASE}.json`,
    query: ['page', 'per_page', 'currency_prices', 'filter.archived_at', 'filter.type'],
    run: (c) => withComponent(c, (component) => listPricePoints(c, component)),
  },
  {
    method: 'GET',
    path: `${BASE}/{price_point_id}.json`,
    query: ['currency_prices'],
    run: (c) =>
      withPricePoint(c, ({ point }) => {
        const currencyPrices = currencyPricesFlag(c.query);
        return currencyPrices.ok ? one(point, currencyPrices.value) : currencyPrices;
      }),
  },
  {
    method: 'PUT',
    path: `${BASE}/{price_point_id}.json`,
    body: updateBody,
    errorShape: 'field-map',
    run: (c) => withPricePoint(c, (found) => updatePricePoint(c, found)),
  },
  {
    method: 'DELETE',
    path: `${BASE}/{price_point_id}.json`,
    run: (c) =>
      withPricePoint(c, ({ component, point }) => {
        if (component.defaultPricePointId === point.id)
          return err({
            code: 'default_price_point',
            status: 422,
            message: 'The default price point cannot be archived.',
          });
        if (point.archivedAt !== null) return one(point);
        return one(c.tx.put('componentPricePoints', { ...point, archivedAt: c.tx.now, updatedAt: c.tx.now }));
      }),
  },
  {
    method: 'PUT',
    path: `${BASE}/{price_point_id}/unarchive.json`,
    run: (c) =>
      withPricePoint(c, ({ point }) =>
        point.archivedAt === null
          ? one(point)
          : one(c.tx.put('componentPricePoints', { ...point, archivedAt: null, updatedAt: c.tx.now })),
      ),
  },
  {
    method: 'PUT',
    path: `${BASE}/{price_point_id}/default.json`,
    run: (c) =>
      withPricePoint(c, ({ component, point }) => {
        if (point.archivedAt !== null)
          return err({
            code: 'archived',
            status: 422,
            message: 'An archived price point cannot be the default.',
          });
        const updated =
          component.defaultPricePointId === point.id
            ? component
            : c.tx.put('components', { ...component, defaultPricePointId: point.id, updatedAt: c.tx.now });
        return reply(200, (state) => ({ component: presentComponent(state, updated) }));
      }),
  },
] as const satisfies readonly Route[];
