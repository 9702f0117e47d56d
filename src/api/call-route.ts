/**
 * `callRoute(state, method, path, call)`: `handle` with the types of the route it reaches. The path is the
 * table's template (`/customers/{id}.json`) with its parameters given apart, so the compiler knows the
 * route, checks its body and parameters, and types the answer with what the route's presenter returns.
 */

import { handle } from './handle.js';
import type { ApiRequest, HandleContext, HandleResult } from './types.js';
import type { WireBody, WireMethod, WireParams, WirePath, WireQuery, WireResponse } from './wire-types.js';

/** An error answer: `{errors: [...]}`, `{errors: {field: [...]}}` or `{errors: "..."}`, with any extra fields. */
export interface WireError {
  /** The error messages: a list, a list per field, or one message. */
  readonly errors: readonly string[] | Readonly<Record<string, readonly string[]>> | string;
}

/** What a route call sends besides its method and path. */
export type RouteCall<M extends WireMethod, P extends string> = HandleContext & {
  /** The values of the path template's parameters (`{ id: 1 }` for `/customers/{id}.json`). */
  readonly params?: WireParams<P>;
  /** The request body, as the route decodes it. */
  readonly body?: WireBody<M, P>;
  /** Query parameters. */
  readonly query?: WireQuery<M, P>;
  /** Request headers (credentials, say). */
  readonly headers?: ApiRequest['headers'];
};

/** A route call's result: `handle`'s, with the answer's body typed by its status. */
export type RouteAnswer<M extends WireMethod, P extends string> = HandleResult &
  (
    | {
        /** The route answered with success (a status below 400). */
        readonly ok: true;
        /** The HTTP status. */
        readonly status: number;
        /** The body the route's presenter made. */
        readonly body: WireResponse<M, P>;
      }
    | {
        /** The request was refused (a status of 400 or more). */
        readonly ok: false;
        /** The HTTP status. */
        readonly status: number;
        /** The error body. */
        readonly body: WireError;
      }
  );

/** Query values as `handle` takes them: text. */
function queryOf(query: Readonly<Record<string, string | number | undefined>>): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(query)) if (value !== undefined) values[name] = String(value);
  return values;
}

/** The path of a template with its parameters filled in, each encoded as one path segment. */
function fill(template: string, params: Readonly<Record<string, string | number>>): string {
  return template
    .replace(/\{(\w+)\}/g, (_whole, name: string) => encodeURIComponent(String(params[name] ?? '')))
    .replace(/\.json\?$/, '.json');
}

/**
 * Calls a route in-process, typed: the body must be what the route decodes, and on success `body` is
 * what its presenter returns.
 * @example
 * const answer = callRoute(state, 'GET', '/customers/{id}.json', { params: { id: 1 }, now });
 * const email = answer.ok ? answer.body.customer.email : undefined; // typed: string | undefined
 */
export function callRoute<M extends WireMethod, P extends WirePath<M>>(
  state: Parameters<typeof handle>[0],
  method: M,
  path: P,
  call: RouteCall<M, P>,
): RouteAnswer<M, P> {
  const { params, body, query, headers, ...context } = call;
  const request: ApiRequest = {
    method,
    path: fill(path, params ?? {}),
    ...(body === undefined ? {} : { body }),
    ...(query === undefined ? {} : { query: queryOf(query) }),
    ...(headers === undefined ? {} : { headers }),
  };
  const result = handle(state, request, context);
  const { status } = result.response;
  // The route's presenter made this body (a success) or the error writer did (`{errors: ...}`): the types
  // say which, and the wire-types test checks them against real answers.
  if (status < 400) return { ...result, ok: true, status, body: result.response.body as WireResponse<M, P> };
  return { ...result, ok: false, status, body: result.response.body as WireError };
}
