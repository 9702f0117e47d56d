/**
 * Segments of an event-based component's price point: create, list, update and delete one. Bulk create
 * and update are in segments-bulk.ts. Errors use the `{errors: {field: [...]}}` shape of the official API.
 */

import type { Segment } from '../../domain/catalog/component.js';
import { segmentableProblem, segmentValueMatches } from '../../domain/catalog/component-rules.js';
import { tableRows } from '../../kernel/collection.js';
import { err, ok, type Result } from '../../kernel/result.js';
import { missing, pageOf } from '../common.js';
import { z } from '../decode.js';
import { fieldErrors } from '../errors.js';
import type { QueryParams } from '../query.js';
import { type Route, type RouteContext, type RouteError, type RouteResult, reply } from '../route.js';
import { findComponent, findComponentPricePoint, presentSegment } from './components-present.js';
import { asFieldMap, decodeFields } from './price-points-input.js';
import {
  buildSegment,
  repriceSegment,
  type SegmentOwner,
  segmentCreateSchema,
  segmentUpdateSchema,
} from './segments-input.js';

/** The price point of the path, when its component is event-based. */
export function withOwner<T>(
  context: RouteContext,
  then: (owner: SegmentOwner) => RouteResult<T>,
): RouteResult<T> {
  const { tx, params } = context;
  const component = findComponent(tx, params['component_id'] ?? '');
  if (component === undefined) return err(missing('Component'));
  const point = findComponentPricePoint(tx, component, params['price_point_id'] ?? '');
  if (point === undefined) return err(missing('Price point'));
  const notSegmentable = segmentableProblem(component.kind);
  if (notSegmentable) return err(notSegmentable);
  const metricId = component.eventBasedBillingMetricId;
  if (metricId === null) return err(missing('Event based billing metric'));
  return then({ component, point, metricId });
}

function withSegment<T>(
  context: RouteContext,
  then: (owner: SegmentOwner, segment: Segment) => RouteResult<T>,
): RouteResult<T> {
  return withOwner(context, (owner) => {
    const id = Number(context.params['segment_id']);
    const segment = /^[1-9]\d{0,14}$/.test(context.params['segment_id'] ?? '')
      ? context.tx.get('segments', id)
      : undefined;
    return segment === undefined || segment.pricePointId !== owner.point.id
      ? err(missing('Segment'))
      : then(owner, segment);
  });
}

const one = (status: number, segment: Segment) =>
  reply(status, (state) => ({ segment: presentSegment(state, segment) }));

/** Paging of the segment list, with its errors named by parameter. */
function segmentPaging(query: QueryParams): Result<{ page: number; perPage: number }, RouteError> {
  const read = (name: string, fallback: number) => {
    const text = query.get(name);
    return text === undefined || text === '' ? fallback : Number(text);
  };
  const page = read('page', 1);
  const perPage = read('per_page', 20);
  const errors: Record<string, string[]> = {};
  if (!Number.isInteger(page) || page < 1 || page > 1_000_000_000)
    errors['page'] = ['must be a whole number of at least 1'];
  if (!Number.isInteger(perPage) || perPage < 1)
    errors['per_page'] = ['must be a whole number of at least 1'];
  if (Object.keys(errors).length > 0) return err(fieldErrors(errors));
  return ok({ page, perPage: Math.min(perPage, 200) });
}

function listSegments(context: RouteContext, owner: SegmentOwner) {
  const { tx, query } = context;
  const page = segmentPaging(query);
  if (!page.ok) return page;
  const filters = [1, 2, 3, 4].map((slot) => query.get(`filter.segment_property_${slot}_value`));
  const matching = function* () {
    for (const segment of tableRows(tx.state.tables.segments)) {
      if (segment.pricePointId !== owner.point.id) continue;
      const fits = filters.every(
        (text, slot) =>
          text === undefined || text === '' || segmentValueMatches(segment.values[slot] ?? null, text),
      );
      if (fits) yield segment;
    }
  };
  const segments = pageOf(matching(), page.value.page, page.value.perPage);
  return reply(200, (state) => ({ segments: segments.map((segment) => presentSegment(state, segment)) }));
}

const BASE = '/components/{component_id}/price_points/{price_point_id}/segments';
const createBody = z.object({ segment: segmentCreateSchema });
const updateBody = z.object({ segment: segmentUpdateSchema });

export const segmentRoutes = [
  {
    method: 'POST',
    path: `${BASE}.json`,
    body: createBody,
    errorShape: 'field-map',
    run: (context) =>
      withOwner(context, (owner) => {
        const { tx } = context;
        const decoded = decodeFields(createBody, context.body, 'segment');
        if (!decoded.ok) return decoded;
        const built = buildSegment(tx, owner, decoded.value.segment, new Set());
        if (!built.ok) return err(asFieldMap(built.error));
        return one(201, tx.put('segments', { id: tx.nextId('segments'), ...built.value }));
      }),
  },
  {
    method: 'GET',
    path: `${BASE}.json`,
    query: [
      'page',
      'per_page',
      'filter.segment_property_1_value',
      'filter.segment_property_2_value',
      'filter.segment_property_3_value',
      'filter.segment_property_4_value',
    ],
    errorShape: 'field-map',
    run: (context) => withOwner(context, (owner) => listSegments(context, owner)),
  },
  {
    method: 'PUT',
    path: `${BASE}/{segment_id}.json`,
    body: updateBody,
    errorShape: 'field-map',
    run: (context) =>
      withSegment(context, (_owner, segment) => {
        const decoded = decodeFields(updateBody, context.body, 'segment');
        if (!decoded.ok) return decoded;
        const updated = repriceSegment(context.tx, segment, decoded.value.segment);
        if (!updated.ok) return err(asFieldMap(updated.error));
        return one(200, context.tx.put('segments', updated.value));
      }),
  },
  {
    method: 'DELETE',
    path: `${BASE}/{segment_id}.json`,
    errorShape: 'field-map',
    run: (context) =>
      withSegment(context, (_owner, segment) => {
        context.tx.remove('segments', segment.id);
        return reply(204);
      }),
  },
] as const satisfies readonly Route[];
