/**
 * The wire types of every route, read off the route table itself: a route's response is what its
 * presenter returns, its body what its schema accepts. Nothing here is written twice, so a presenter
 * that changes a field changes its wire type with it.
 */

import type { z } from './decode.js';
import type { Reply, Route } from './route.js';
import type { routes } from './routes.js';

/**
 * Every route of the table, each with its own method, path, body schema and presenter. Routes built in a
 * loop (a family of price point routes, say) carry only `string` as their path and are left out here;
 * they are still served, and `handle` reaches them.
 */
export type WireRoute = Literal<(typeof routes)[number]>;
type Literal<R> = R extends { readonly path: infer P } ? (string extends P ? never : R) : never;

/** The methods the API serves. */
export type WireMethod = WireRoute['method'];

/** The path templates served for a method, as the table writes them: `/customers/{id}.json`. */
export type WirePath<M extends WireMethod> = Extract<
  WireRoute,
  {
    /** The method the routes answer. */
    readonly method: M;
  }
>['path'];

/** The route served for a method and path template. */
export type RouteAt<M extends WireMethod, P extends string> = Extract<
  WireRoute,
  { readonly method: M; readonly path: P }
>;

/** What a route's presenter returns: the body of its successful answer (`undefined`: no body). */
type PresentedBy<R> = R extends { readonly run: (...args: never[]) => infer Result }
  ? Extract<Result, { readonly ok: true }> extends { readonly value: infer Answer }
    ? Answer extends Reply<infer Body>
      ? Body
      : never
    : never
  : never;

/**
 * The body of a successful answer to `method path`, as the engine presents it.
 * @example type Created = WireResponse<'POST', '/customers.json'>; // { customer: { id: number; first_name: string; ... } }
 */
export type WireResponse<M extends WireMethod, P extends string> = PresentedBy<RouteAt<M, P>>;

/**
 * The request body `method path` accepts, as its schema reads it (`unknown` for a route without one).
 * @example type NewCustomer = WireBody<'POST', '/customers.json'>; // { customer: { first_name: string; ... } }
 */
export type WireBody<M extends WireMethod, P extends string> =
  RouteAt<M, P> extends {
    /** The zod schema the route decodes its body with. */
    readonly body: infer Schema extends z.ZodType;
  }
    ? z.input<Schema>
    : unknown;

/** A `QueryParams` name as the wire writes it: `filter.ids` is `filter[ids]`. */
type WireName<N extends string> = N extends `${infer Head}.${infer Tail}` ? `${Head}[${Tail}]` : N;

/**
 * The query parameters `method path` reads, as the wire names them, each optional: a route reads only
 * what it declares (`Route.query`), so this is the whole list.
 * @example type ListCustomers = WireQuery<'GET', '/customers.json'>; // { page?: string; per_page?: string; direction?: string; q?: string }
 */
export type WireQuery<M extends WireMethod, P extends string> =
  RouteAt<M, P> extends {
    /** The names of the query parameters the route declares. */
    readonly query: readonly (infer Name extends string)[];
  }
    ? { readonly [K in WireName<Name>]?: string | number }
    : Record<never, never>;

/** The path parameters a template names: `{id}` in `/customers/{id}.json` is `id`. */
export type WireParams<P extends string> = P extends `${string}{${infer Name}}${infer Rest}`
  ? { readonly [K in Name | keyof WireParams<Rest>]: string | number }
  : Record<never, never>;

/** Keeps `Route` in the table's element type honest: every wire route is a route. */
export type IsRoute<R extends Route> = R;
