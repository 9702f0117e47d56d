/** Helpers the resource files share: references by id or handle, paging, body envelopes, timestamps. */

import type { DomainError } from '../domain/errors.js';
import type { IndexName, SiteState, TableName, TableRows } from '../engine/state.js';
import type { Transaction } from '../engine/transaction.js';
import { indexGet } from '../kernel/collection.js';
import { parseId } from '../kernel/ids.js';
import { toMinor } from '../kernel/money.js';
import { err, ok, type Result } from '../kernel/result.js';
import { formatTimestamp, type Instant } from '../kernel/time.js';
import { decode, failureMessages, type z } from './decode.js';
import { errorResponse } from './errors.js';
import type { QueryParams } from './query.js';
import type { RouteError } from './route.js';

/** A row by id, or by `handle:<handle>` through an index. */
export function findRef<K extends TableName>(
  tx: Transaction,
  table: K,
  ref: string,
  index?: IndexName,
  handleKey: (handle: string) => string = (handle) => handle,
): TableRows[K] | undefined {
  if (ref.startsWith('handle:')) {
    if (index === undefined) return undefined;
    const id = indexGet(tx.state.indexes[index], handleKey(ref.slice(7)));
    return id === undefined ? undefined : tx.get(table, id);
  }
  const id = parseId(ref);
  return id === undefined ? undefined : tx.get(table, id);
}

/** A 404 route error. */
export const missing = (what: string): DomainError => ({
  code: 'not_found',
  status: 404,
  message: `${what} not found.`,
});

/** Decodes a body with a schema; failures become a 422 with `field: message` lines. */
export function decodeBody<T>(schema: z.ZodType<T>, body: unknown): Result<T, RouteError> {
  const decoded = decode(schema, body ?? {});
  return decoded.ok
    ? ok(decoded.value)
    : err({ response: errorResponse(422, ...failureMessages(decoded.error)) });
}

/** Paging parameters: page from 1, per_page default 20 clamped to 200. */
/** The query parameters `paging` reads. */
export const PAGING_QUERY = ['page', 'per_page'] as const;

/**
 * Query names a listing reads both top-level and under `filter[...]` (newer SDKs send them as filters).
 * @example withFilterAliases(['start_date']) // ['start_date', 'filter.start_date']
 */
export function withFilterAliases<const N extends string>(
  names: readonly N[],
): readonly (N | `filter.${N}`)[] {
  return [...names, ...names.map((name): `filter.${N}` => `filter.${name}`)];
}

export function paging(
  query: QueryParams,
  defaultPerPage = 20,
): Result<{ page: number; perPage: number }, RouteError> {
  const pageText = query.get('page');
  const perPageText = query.get('per_page');
  const page = pageText === undefined || pageText === '' ? 1 : Number(pageText);
  const perPage = perPageText === undefined || perPageText === '' ? defaultPerPage : Number(perPageText);
  if (!Number.isInteger(page) || page < 1 || page > 1_000_000_000)
    return err({ response: errorResponse(422, 'page: must be a whole number of at least 1') });
  if (!Number.isInteger(perPage) || perPage < 1)
    return err({ response: errorResponse(422, 'per_page: must be a whole number of at least 1') });
  return ok({ page, perPage: Math.min(perPage, 200) });
}

/** One page of an iterable. */
export function pageOf<T>(items: Iterable<T>, page: number, perPage: number): T[] {
  const result: T[] = [];
  const skip = (page - 1) * perPage;
  let index = 0;
  for (const item of items) {
    if (index >= skip) result.push(item);
    index += 1;
    if (result.length >= perPage) break;
  }
  return result;
}

/** A timestamp in the site's offset, or null. */
export const stamp = (state: SiteState, instant: Instant | null): string | null =>
  instant === null ? null : formatTimestamp(instant, state.settings.timeZone);

/** Cents of an amount in the site currency, or null. */
export const cents = (state: SiteState, amount: string | null): number | null =>
  amount === null ? null : toMinor(amount, state.settings.currency);

/** Validates a handle: lowercase letters, digits, `-` and `_`, starting with a letter or digit. */
export const isHandle = (handle: string): boolean => /^[a-z0-9][a-z0-9_-]{0,254}$/.test(handle);

/**
 * Why a handle cannot be used, if it cannot: its form, or another record (`owner`, from the handle index)
 * already has it. `label` is the field's name in the message ('Handle', 'API Handle').
 */
export function handleProblem(
  label: string,
  handle: string,
  owner: number | undefined,
  selfId: number | null,
): DomainError | undefined {
  if (!isHandle(handle))
    return {
      code: 'invalid_handle',
      status: 422,
      message: `${label}: must start with a letter or number and contain only lowercase letters, numbers, underscores and dashes.`,
    };
  if (owner === undefined || owner === selfId) return undefined;
  return {
    code: 'handle_taken',
    status: 422,
    message: `${label}: must be unique - that value has been taken.`,
  };
}

/** A handle made from a name. @example handleFromName('Gold Plan!') // 'gold-plan' */
export function handleFromName(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 200);
  return slug.length > 0 ? slug : 'item';
}
