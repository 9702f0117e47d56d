/** What a route is: a method and a path template, and the function that runs it. */

import type { DomainError } from '../domain/errors.js';
import type { PaymentGateway } from '../domain/payment/types.js';
import type { SiteState } from '../engine/state.js';
import type { Transaction } from '../engine/transaction.js';
import type { Result } from '../kernel/result.js';
import type { z } from './decode.js';
import type { QueryParams } from './query.js';
import type { ApiResponse, HttpMethod } from './types.js';

export interface RouteContext {
  readonly tx: Transaction;
  readonly params: Readonly<Record<string, string>>;
  readonly query: QueryParams;
  readonly body: unknown;
  readonly gateway: PaymentGateway;
}

/**
 * A successful answer: the status and how to present the body from the state after the changes. `T` is
 * the body's wire shape, which the route table carries to the exported wire types (wire-types.ts).
 */
export interface Reply<T = unknown> {
  readonly status: number;
  readonly present?: (state: SiteState) => T;
}

/** A route fails with a domain error, or with a response it shaped itself. */
export type RouteError = DomainError | { readonly response: ApiResponse };

export type RouteResult<T = unknown> = Result<Reply<T>, RouteError>;

/**
 * How this route's domain errors are written: `list` as `{errors: [message]}`, `field-map` (a 422) as
 * `{errors: {field: [message]}}`, `message` as `{errors: message}`, `single` (a 422) as `{error: message}`.
 */
export type ErrorShape = 'list' | 'field-map' | 'message' | 'single';

export interface Route<M extends HttpMethod = HttpMethod, P extends string = string> {
  readonly method: M;
  /** Template such as `/customers/{id}.json`; a trailing `.json?` makes the suffix optional. */
  readonly path: P;
  /** The body it decodes (the same schema its `run` uses), for the wire types and the OpenAPI document. */
  readonly body?: z.ZodType;
  /**
   * The query parameters it reads, as `QueryParams` names them (`filter.ids` for `filter[ids]`): only
   * these can be read, and they are what the wire types and the OpenAPI document list.
   */
  readonly query?: readonly string[];
  readonly errorShape?: ErrorShape;
  readonly run: (context: RouteContext) => RouteResult;
}

/** Shorthand for a successful reply without a body. */
export function reply(status: number): RouteResult<undefined>;
/** Shorthand for a successful reply whose body `present` makes from the state after the changes. */
export function reply<T>(status: number, present: (state: SiteState) => T): RouteResult<T>;
export function reply<T>(status: number, present?: (state: SiteState) => T): RouteResult<T | undefined> {
  return { ok: true, value: present === undefined ? { status } : { status, present } };
}
