/**
 * `handle(state, request, { now })`: catch up on time, authenticate, route, decide, apply the changes in
 * one produce, present. It never throws: a fault answers an error and leaves the state as it was.
 */

import { testGateway } from '../domain/payment/test-gateway.js';
import { applyChanges, type Change } from '../engine/changes.js';
import { catchUp, effectiveNow, handOnDueQueue } from '../engine/clock.js';
import type { SiteState } from '../engine/state.js';
import { Transaction } from '../engine/transaction.js';
import { toInstant } from '../kernel/time.js';
import { isAuthorized } from './auth.js';
import { errorResponse, routeErrorResponse } from './errors.js';
import { parseQuery } from './query.js';
import { createRouter } from './router.js';
import { routes } from './routes.js';
import type { ApiRequest, ApiResponse, HandleContext, HandleResult } from './types.js';

const matchRoute = createRouter(routes);
const MAX_PATH_LENGTH = 4096;
const MAX_BODY_TEXT = 16 * 1024 * 1024;

/**
 * Handles one REST request against a site's state.
 * @example
 * const { state: next, response } = handle(state, { method: 'GET', path: '/customers.json' }, { now: '2026-01-01T00:00:00Z' });
 */
export function handle(state: SiteState, request: ApiRequest, context: HandleContext): HandleResult {
  try {
    return handleUnsafe(state, request, context);
  } catch (fault) {
    // A fault here is a bug; the caller still gets an answer and an untouched state.
    return rejected(state, errorResponse(422, `The request could not be processed (${describe(fault)}).`));
  }
}

function describe(fault: unknown): string {
  return fault instanceof Error ? fault.name : 'internal error';
}

const rejected = (state: SiteState, response: ApiResponse): HandleResult => ({
  state,
  response,
  events: [],
  changes: [],
});

function handleUnsafe(state: SiteState, request: ApiRequest, context: HandleContext): HandleResult {
  const requested = parseNow(context.now);
  if (requested === undefined)
    return rejected(state, errorResponse(400, 'context.now is not a valid instant.'));
  const now = effectiveNow(state, requested);
  const gateway = context.payments ?? testGateway;

  const rawPath = typeof request.path === 'string' ? request.path : '';
  if (rawPath.length === 0 || rawPath.length > MAX_PATH_LENGTH || !rawPath.startsWith('/')) {
    return rejected(state, errorResponse(404, 'Not found.'));
  }
  const questionMark = rawPath.indexOf('?');
  const pathPart = questionMark < 0 ? rawPath : rawPath.slice(0, questionMark);
  const query = parseQuery(questionMark < 0 ? '' : rawPath.slice(questionMark + 1), request.query);
  if (query === undefined) return rejected(state, errorResponse(400, 'The query string is malformed.'));
  const segments = decodeSegments(pathPart);
  if (segments === undefined) return rejected(state, errorResponse(400, 'The path is malformed.'));

  const keys = state.settings.apiKeys;
  if (keys !== null && !isAuthorized(header(request, 'authorization'), keys)) {
    return {
      state,
      response: {
        status: 401,
        body: { errors: ['HTTP Basic: Access denied.'] },
        headers: { 'WWW-Authenticate': 'Basic realm="billing-core"' },
      },
      events: [],
      changes: [],
    };
  }

  const method = typeof request.method === 'string' ? request.method.toUpperCase() : '';
  const match = matchRoute(method, segments);
  if (match.kind === 'not-found') return rejected(state, errorResponse(404, 'Not found.'));
  if (match.kind === 'method-not-allowed') return rejected(state, errorResponse(405, 'Method not allowed.'));

  const body = parseBody(request.body);
  if (!body.ok) return rejected(state, errorResponse(400, 'The request body is not valid JSON.'));

  const caughtUp = catchUp(state, now, gateway);
  const tx = new Transaction(caughtUp.state, now);
  const result = match.route.run({ tx, params: match.params, query, body: body.value, gateway });
  if (!result.ok) return rejected(state, routeErrorResponse(result.error, match.route.errorShape));

  const decided = tx.changes();
  // A read that found nothing due leaves the very same state; anything else also records the clock.
  const unchanged = decided.length === 0 && caughtUp.state === state;
  const requestChanges: Change[] = unchanged ? [] : [...decided, { type: 'clock', now }];
  const next = unchanged ? state : applyChanges(caughtUp.state, requestChanges);
  handOnDueQueue(caughtUp.state, next, requestChanges);
  const responseBody = result.value.present?.(next);
  const response: ApiResponse =
    responseBody === undefined
      ? { status: result.value.status }
      : { status: result.value.status, body: responseBody };
  return {
    state: next,
    response,
    events: [...caughtUp.events, ...tx.events()],
    changes: [...caughtUp.changes, ...requestChanges],
  };
}

function parseNow(now: unknown): string | undefined {
  if (!(typeof now === 'string' || now instanceof Date)) return undefined;
  try {
    return toInstant(now);
  } catch {
    return undefined;
  }
}

function header(request: ApiRequest, name: string): string | undefined {
  const headers = request.headers;
  if (headers === undefined || headers === null || typeof headers !== 'object') return undefined;
  for (const key of Object.keys(headers)) {
    const value = headers[key];
    if (key.toLowerCase() === name && typeof value === 'string') return value;
  }
  return undefined;
}

function decodeSegments(path: string): string[] | undefined {
  const segments: string[] = [];
  for (const raw of path.split('/').slice(1)) {
    if (!raw.includes('%')) {
      segments.push(raw);
      continue;
    }
    try {
      segments.push(decodeURIComponent(raw));
    } catch {
      return undefined;
    }
  }
  return segments;
}

function parseBody(body: unknown): { ok: true; value: unknown } | { ok: false } {
  if (typeof body !== 'string') return { ok: true, value: body };
  if (body.trim().length === 0) return { ok: true, value: undefined };
  if (body.length > MAX_BODY_TEXT) return { ok: false };
  try {
    return { ok: true, value: JSON.parse(body) as unknown };
  } catch {
    return { ok: false };
  }
}
