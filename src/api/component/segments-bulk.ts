/**
 * Bulk segment requests: up to 2000 created or 1000 updated in one call, all or nothing.
 * Every record is checked in order before anything is written; the first failing record fails the whole
 * request with `{errors: {segments: {"<index>": {"<field>": ["message"]}}}}`, naming only that record.
 */

import type { Segment } from '../../domain/catalog/component.js';
import {
  SEGMENT_BULK_CREATE_LIMIT,
  SEGMENT_BULK_UPDATE_LIMIT,
} from '../../domain/catalog/component-rules.js';
import { err, ok, type Result } from '../../kernel/result.js';
import { decode, z } from '../decode.js';
import { type Route, type RouteContext, type RouteError, reply } from '../route.js';
import type { ApiResponse } from '../types.js';
import { presentSegment } from './components-present.js';
import type { FieldProblem } from './price-points-input.js';
import { withOwner } from './segments.js';
import {
  buildSegment,
  bulkUpdateItemSchema,
  keyOf,
  repriceSegment,
  type SegmentOwner,
  segmentCreateSchema,
} from './segments-input.js';

const segmentsError = (segments: unknown): RouteError => ({
  response: { status: 422, body: { errors: { segments } } } satisfies ApiResponse,
});

/** The failure of the record at `index`. */
const recordError = (index: number, fields: Readonly<Record<string, readonly string[]>>): RouteError =>
  segmentsError({ [String(index)]: fields });

const fromProblem = (index: number, found: FieldProblem): RouteError =>
  recordError(index, { [found.field]: [found.message] });

/**
 * The bodies of the bulk operations. `run` reads the array and its limit itself, then decodes each item
 * with the same item schema, one at a time, so that an error names the segment's index.
 */
const bulkCreateBody = z.object({ segments: z.array(segmentCreateSchema).max(SEGMENT_BULK_CREATE_LIMIT) });
const bulkUpdateBody = z.object({ segments: z.array(bulkUpdateItemSchema).max(SEGMENT_BULK_UPDATE_LIMIT) });

/** The `segments` array of a bulk body, within the limit. */
function records(body: unknown, limit: number): Result<readonly unknown[], RouteError> {
  const list =
    body !== null && typeof body === 'object' && Object.hasOwn(body, 'segments')
      ? (body as { readonly segments: unknown }).segments
      : undefined;
  if (!Array.isArray(list)) return err(segmentsError(['must be an array of segments']));
  if (list.length > limit)
    return err(segmentsError([`can hold at most ${limit} segments (${list.length} sent)`]));
  return ok(list);
}

function bulkCreate(context: RouteContext, owner: SegmentOwner) {
  const { tx } = context;
  const items = records(context.body, SEGMENT_BULK_CREATE_LIMIT);
  if (!items.ok) return items;
  const built: Omit<Segment, 'id'>[] = [];
  const taken = new Set<string>();
  for (const [index, item] of items.value.entries()) {
    const decoded = decode(segmentCreateSchema, item);
    if (!decoded.ok) return err(recordError(index, decoded.error));
    const segment = buildSegment(tx, owner, decoded.value, taken);
    if (!segment.ok) return err(fromProblem(index, segment.error));
    taken.add(keyOf(segment.value));
    built.push(segment.value);
  }
  const written = built.map((segment) => tx.put('segments', { id: tx.nextId('segments'), ...segment }));
  return reply(201, (state) => ({ segments: written.map((segment) => presentSegment(state, segment)) }));
}

function bulkUpdate(context: RouteContext, owner: SegmentOwner) {
  const { tx } = context;
  const items = records(context.body, SEGMENT_BULK_UPDATE_LIMIT);
  if (!items.ok) return items;
  const updated: Segment[] = [];
  const seen = new Set<number>();
  for (const [index, item] of items.value.entries()) {
    const decoded = decode(bulkUpdateItemSchema, item);
    if (!decoded.ok) return err(recordError(index, decoded.error));
    const segment = tx.get('segments', decoded.value.id);
    if (segment === undefined || segment.pricePointId !== owner.point.id)
      return err(recordError(index, { id: ['is not a segment of this price point'] }));
    if (seen.has(segment.id))
      return err(recordError(index, { id: ['appears more than once in the request'] }));
    seen.add(segment.id);
    const repriced = repriceSegment(tx, segment, decoded.value);
    if (!repriced.ok) return err(fromProblem(index, repriced.error));
    updated.push(repriced.value);
  }
  const written = updated.map((segment) => tx.put('segments', segment));
  return reply(200, (state) => ({ segments: written.map((segment) => presentSegment(state, segment)) }));
}

const PATH = '/components/{component_id}/price_points/{price_point_id}/segments/bulk.json';

export const segmentBulkRoutes = [
  {
    method: 'POST',
    path: PATH,
    body: bulkCreateBody,
    errorShape: 'field-map',
    run: (context) => withOwner(context, (owner) => bulkCreate(context, owner)),
  },
  {
    method: 'PUT',
    path: PATH,
    body: bulkUpdateBody,
    errorShape: 'field-map',
    run: (context) => withOwner(context, (owner) => bulkUpdate(context, owner)),
  },
] as const satisfies readonly Route[];
