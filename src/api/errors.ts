/** Error bodies: `{errors: [...]}` unless the operation has its own shape. */
import type { DomainError } from '../domain/errors.js';
import type { ErrorShape, RouteError } from './route.js';
import type { ApiResponse } from './types.js';

/** A response with the general error body. @example errorResponse(404, 'Not found') */
export const errorResponse = (status: number, ...messages: string[]): ApiResponse => ({
  status,
  body: { errors: messages },
});

/** Writes a route error in the route's shape. */
export function routeErrorResponse(error: RouteError, shape: ErrorShape = 'list'): ApiResponse {
  if ('response' in error) return error.response;
  return { status: error.status, body: domainErrorBody(error, shape) };
}

function domainErrorBody(error: DomainError, shape: ErrorShape): unknown {
  const extra = error.extra ?? {};
  if (shape === 'message') return { errors: error.message, ...extra };
  if (shape === 'single' && error.status === 422) return { error: error.message, ...extra };
  if (shape === 'field-map' && error.status === 422) {
    return { errors: { [error.field ?? 'base']: [error.message] }, ...extra };
  }
  return { errors: [error.message], ...extra };
}

/** A 422 with several field messages in the `{errors: {field: [...]}}` shape. */
export function fieldErrors(errors: Readonly<Record<string, readonly string[]>>): { response: ApiResponse } {
  return { response: { status: 422, body: { errors } } };
}
