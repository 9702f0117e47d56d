/**
 * Listing feature templates: `GET /features.json` with `page`, `per_page`, `status` (`active` by default,
 * `archived`, `all`), `q` (in the name or key, any case), `kind` (or `all`), `updated_from`/`updated_to`
 * (whole days in the site zone) and `sort_by` (`name`, `updated_at`, `kind`, `value_type`) with
 * `sort_direction`. The body is `{items, total_count, archived_count}` as the official API answers;
 * `archived_count` counts the archived templates matching the other filters, and is 0 unless the
 * active result is empty or archived templates were asked for.
 */

import { FEATURE_KINDS } from '../../domain/feature/rules.js';
import type { FeatureTemplate } from '../../domain/feature/types.js';
import type { Transaction } from '../../engine/transaction.js';
import { tableRows } from '../../kernel/collection.js';
import { err, ok, type Result } from '../../kernel/result.js';
import { addDays, type Instant, parseCalendarDate, startOfDay } from '../../kernel/time.js';
import { pageOf, paging } from '../common.js';
import { errorResponse } from '../errors.js';
import type { QueryParams } from '../query.js';
import { type Route, type RouteError, reply } from '../route.js';
import { presentFeatureTemplate, templateCounts } from './features-present.js';

const NONE = { components: 0, products: 0 };

const bad = (message: string): RouteError => ({ response: errorResponse(422, message) });

const SORT_KEYS = {
  name: (t: FeatureTemplate) => t.name.toLowerCase(),
  updated_at: (t: FeatureTemplate) => t.updatedAt,
  kind: (t: FeatureTemplate) => t.kind,
  value_type: (t: FeatureTemplate) => t.valueType,
} as const;

const isSortKey = (text: string): text is keyof typeof SORT_KEYS => Object.hasOwn(SORT_KEYS, text);

function dayBound(
  query: QueryParams,
  name: string,
  zone: string,
  days: number,
): Result<Instant | null, RouteError> {
  const text = query.get(name);
  if (text === undefined || text === '') return ok(null);
  const date = parseCalendarDate(text);
  return date.ok
    ? ok(startOfDay(addDays(date.value, days), zone))
    : err(bad(`${name}: must be a date in the format YYYY-MM-DD`));
}

function listTemplates(tx: Transaction, query: QueryParams) {
  const page = paging(query);
  if (!page.ok) return page;
  const status = query.get('status') || 'active';
  if (status !== 'active' && status !== 'archived' && status !== 'all')
    return err(bad('status: must be active, archived or all'));
  const kind = query.get('kind') || 'all';
  if (kind !== 'all' && !(FEATURE_KINDS as readonly string[]).includes(kind))
    return err(bad('kind: must be access_right, usage_limit, service_right or all'));
  const sortBy = query.get('sort_by') || 'name';
  if (!isSortKey(sortBy)) return err(bad('sort_by: must be name, updated_at, kind or value_type'));
  const direction = query.get('sort_direction') || 'asc';
  if (direction !== 'asc' && direction !== 'desc') return err(bad('sort_direction: must be asc or desc'));
  const from = dayBound(query, 'updated_from', tx.settings.timeZone, 0);
  if (!from.ok) return from;
  const to = dayBound(query, 'updated_to', tx.settings.timeZone, 1);
  if (!to.ok) return to;
  const q = query.get('q')?.trim().toLowerCase() ?? '';

  const matching: FeatureTemplate[] = [];
  let archivedCount = 0;
  for (const template of tableRows(tx.state.tables.featureTemplates)) {
    if (kind !== 'all' && template.kind !== kind) continue;
    if (q !== '' && !`${template.name}\n${template.key}`.toLowerCase().includes(q)) continue;
    if (from.value !== null && template.updatedAt < from.value) continue;
    if (to.value !== null && template.updatedAt >= to.value) continue;
    const archived = template.archivedAt !== null;
    if (archived) archivedCount += 1;
    if (status === 'all' || (status === 'archived') === archived) matching.push(template);
  }
  const key = SORT_KEYS[sortBy];
  const sign = direction === 'asc' ? 1 : -1;
  matching.sort((a, b) => {
    const x = key(a);
    const y = key(b);
    return (x < y ? -1 : x > y ? 1 : a.id - b.id) * sign;
  });
  const items = pageOf(matching, page.value.page, page.value.perPage);
  const reportArchived = status !== 'active' || matching.length === 0;
  return reply(200, (state) => {
    const counts = templateCounts(state);
    return {
      items: items.map((template) =>
        presentFeatureTemplate(state, template, counts.get(template.id) ?? NONE),
      ),
      total_count: matching.length,
      archived_count: reportArchived ? archivedCount : 0,
    };
  });
}

export const featureTemplateListRoutes = [
  {
    method: 'GET',
    path: '/features.json',
    query: [
      'page',
      'per_page',
      'kind',
      'q',
      'sort_by',
      'sort_direction',
      'status',
      'updated_from',
      'updated_to',
    ],
    run: ({ tx, query }) => listTemplates(tx, query),
  },
] as const satisfies readonly Route[];
