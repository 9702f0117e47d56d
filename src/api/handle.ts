/**
 * `handle(state, request, { now })`: catch up on time, authenticate, route, decide, apply the changes in
 * one produce, present. It never throws: a fault answers an error and leaves the state as it was.
 */

import type { SiteEvent } from '../domain/event-log/types.js';
import { guardedGateway } from '../domain/payment/guarded-gateway.js';
import { testGateway } from '../domain/payment/test-gateway.js';
import type { PaymentGateway } from '../domain/payment/types.js';
import { applyChanges, type Change } from '../engine/changes.js';
import {
  type CatchUpResult,
  catchUp,
  effectiveNow,
  handOnDueQueue,
  STEPS_PER_CALL,
} from '../engine/clock.js';
import type { SiteState } from '../engine/state.js';
import { Transaction } from '../engine/transaction.js';
import { type Instant, toInstant } from '../kernel/time.js';
import { isAuthorized } from './auth.js';
import { errorResponse, routeErrorResponse } from './errors.js';
import { declaredQuery, parseQuery } from './query.js';
import { createRouter } from './router.js';
import { routes } from './routes.js';
import type { ApiRequest, ApiResponse, HandleContext, HandleFault, HandleResult } from './types.js';

const matchRoute = createRouter(routes);
const MAX_PATH_LENGTH = 4096;
const MAX_BODY_TEXT = 16 * 1024 * 1024;

/** What a call has done so far: the state it stands on (caught up once time's effects are applied). */
export interface Progress {
  readonly input: SiteState;
  state: SiteState;
  events: readonly SiteEvent[];
  changes: readonly Change[];
  /** The instant the call runs at, once known. */
  now: Instant | null;
}

/**
 * Handles one REST request against a site's state.
 * @example
 * const { state: next, response } = handle(state, { method: 'GET', path: '/customers.json' }, { now: '2026-01-01T00:00:00Z' });
 */
export function handle(state: SiteState, request: ApiRequest, context: HandleContext): HandleResult {
  const progress = startCall(state);
  try {
    const requested = parseNow(context.now);
    if (requested === undefined)
      return refused(progress, errorResponse(400, 'context.now is not a valid instant.'));
    const now = effectiveNow(state, requested);
    const payments = context.payments;
    const gateway = payments === undefined ? testGateway : guardedGateway(payments);
    // What fell due by now happens whatever becomes of the request, and stays done: a payment
    // attempted while catching up is never attempted again because the request was refused.
    return answer(progress, catchUp(state, now, gateway), now, request, gateway);
  } catch (thrown) {
    return faulted(progress, thrown);
  }
}

/** A call's progress before anything is done. */
export const startCall = (state: SiteState): Progress => ({
  input: state,
  state,
  events: [],
  changes: [],
  now: null,
});

/**
 * A fault is a bug in the engine: 500, the state as far as it got (time's effects kept, the
 * request's own changes dropped), and the fault itself for the host's monitoring.
 */
export function faulted(progress: Progress, thrown: unknown): HandleResult {
  const fault = faultOf(thrown, progress.input, progress);
  return { ...refused(progress, errorResponse(500, `Internal error ${fault.id}`)), fault };
}

/** The instant a call asks to run at, or undefined when it is not one. */
export function parseNow(now: unknown): string | undefined {
  if (!(typeof now === 'string' || now instanceof Date)) return undefined;
  try {
    return toInstant(now);
  } catch {
    return undefined;
  }
}

/**
 * An error response over what the call had already done: time's effects are never undone. When something
 * fell due the clock moves to `now` as well, so a refusal leaves the state exactly as `advance` would.
 */
function refused(progress: Progress, response: ApiResponse): HandleResult {
  const { input, state, events, changes, now } = progress;
  if (state === input || now === null || state.clock === now) return { state, response, events, changes };
  const clock: Change = { type: 'clock', now };
  const advanced = applyChanges(state, [clock]);
  handOnDueQueue(state, advanced, [clock]);
  return { state: advanced, response, events, changes: [...changes, clock] };
}

/**
 * The rest of a call once what fell due by `now` is done (`caughtUp`): authenticate, route, decide, apply
 * the changes in one step, present. Shared by `handle` and `handleAsync`, so both give the same bytes.
 */
export function answer(
  progress: Progress,
  caughtUp: CatchUpResult,
  now: Instant,
  request: ApiRequest,
  gateway: PaymentGateway,
): HandleResult {
  const state = progress.input;
  progress.state = caughtUp.state;
  progress.events = caughtUp.events;
  progress.changes = caughtUp.changes;
  if (!caughtUp.complete) {
    // Too much fell due for one call (a clock moved years ahead): keep the slice done, answer, and let
    // the next request go on, so no request stalls the site or exhausts its memory.
    return refused(progress, {
      status: 503,
      body: {
        errors: [
          `Catching up: ${STEPS_PER_CALL} steps that fell due were performed, up to ${caughtUp.state.clock ?? now}; more fell due by ${now}. Send the request again to continue.`,
        ],
      },
      headers: { 'Retry-After': '0' },
    });
  }
  progress.now = now;

  const rawPath = typeof request.path === 'string' ? request.path : '';
  if (rawPath.length === 0 || rawPath.length > MAX_PATH_LENGTH || !rawPath.startsWith('/')) {
    return refused(progress, errorResponse(404, 'Not found.'));
  }
  const questionMark = rawPath.indexOf('?');
  const pathPart = questionMark < 0 ? rawPath : rawPath.slice(0, questionMark);
  const query = parseQuery(questionMark < 0 ? '' : rawPath.slice(questionMark + 1), request.query);
  if (query === undefined) return refused(progress, errorResponse(400, 'The query string is malformed.'));
  const segments = decodeSegments(pathPart);
  if (segments === undefined) return refused(progress, errorResponse(400, 'The path is malformed.'));

  const keys = state.settings.apiKeys;
  if (keys !== null && !isAuthorized(header(request, 'authorization'), keys)) {
    return refused(progress, {
      status: 401,
      body: { errors: ['HTTP Basic: Access denied.'] },
      headers: { 'WWW-Authenticate': 'Basic realm="billing-core"' },
    });
  }

  const method = typeof request.method === 'string' ? request.method.toUpperCase() : '';
  const match = matchRoute(method, segments);
  if (match.kind === 'not-found') return refused(progress, errorResponse(404, 'Not found.'));
  if (match.kind === 'method-not-allowed')
    return refused(progress, errorResponse(405, 'Method not allowed.'));

  const body = parseBody(request.body);
  if (!body.ok) return refused(progress, errorResponse(400, 'The request body is not valid JSON.'));

  const tx = new Transaction(caughtUp.state, now);
  const route = match.route;
  const routeQuery = declaredQuery(query, route.query, `${route.method} ${route.path}`);
  const result = route.run({ tx, params: match.params, query: routeQuery, body: body.value, gateway });
  if (!result.ok) return refused(progress, routeErrorResponse(result.error, route.errorShape));

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

/**
 * The fault a call hit, described without trusting it (its `message`, `stack` or `name` may be getters
 * that throw), with an id derived from the call so the same fault on the same input has the same id.
 */
function faultOf(thrown: unknown, state: SiteState, progress: Progress): HandleFault {
  const message = safely(
    () => (thrown instanceof Error ? String(thrown.message) : String(thrown)),
    'unknown fault',
  );
  const stack = safely(() => (thrown instanceof Error ? String(thrown.stack ?? '') : ''), '');
  const id = fnv1a(`${state.clock ?? ''}|${state.events.length}|${progress.changes.length}|${message}`);
  return { id, message, stack };
}

function safely(read: () => string, fallback: string): string {
  try {
    return read();
  } catch {
    return fallback;
  }
}

/** 32-bit FNV-1a of a text, as 8 hex digits: a short, stable name for a fault. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
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
