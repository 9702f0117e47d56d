/**
 * `billing-core/fetch`: the REST API as a fetch-style handler, `(Request) => Promise<Response>`, for any
 * host that speaks the fetch API (Node through `node-http.ts`, Hono, Bun, Deno, edge workers).
 *
 * Requests are applied one at a time, in the order the handler was called, even when their bodies
 * finish arriving out of order; the handler keeps the site's state between calls.
 * @module billing-core/fetch
 */

import { handle } from '../api/handle.js';
import { handleAsync } from '../api/handle-async.js';
import type { ApiRequest, ApiResponse, HandleFault, HandleResult } from '../api/types.js';
import type { AsyncPaymentGateway, SettledPayment } from '../domain/payment/types.js';
import type { SiteConfig } from '../domain/site/config.js';
import { createSite, type SiteState } from '../engine/state.js';
import { type ApiHandler, ApiTurns, errorAnswer, internalError, type Turn } from './turns.js';

/** A handler in the fetch API's shape. */
export type FetchHandler = (request: Request) => Promise<Response>;

export type { ApiHandler } from './turns.js';

/** How large a request body the handler reads. */
export interface BodyLimitOptions {
  /** The largest request body accepted, in bytes; a larger one answers 413. Default 16 MiB. */
  readonly maxBodyBytes?: number;
}

/** The body limit when `maxBodyBytes` is not given: 16 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024;

/** A request body as read: its text, or too large (the rest of it is not read). */
type BodyRead = { readonly kind: 'ok'; readonly text: string } | { readonly kind: 'too-large' };

async function readBodyText(request: Request, limit: number): Promise<BodyRead> {
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > limit) {
    await request.body?.cancel().catch(() => {});
    return { kind: 'too-large' };
  }
  if (request.body === null) return { kind: 'ok', text: '' };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      return { kind: 'too-large' };
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { kind: 'ok', text: new TextDecoder().decode(bytes) };
}

/** The engine's view of a request: path with its query string, headers, the body as text (if any). */
function toApiRequest(request: Request, body: string): ApiRequest {
  const url = new URL(request.url);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const base = { method: request.method, path: `${url.pathname}${url.search}`, headers };
  return body.length === 0 ? base : { ...base, body };
}

/** An engine answer as a `Response`: JSON with its content type, or no body for 204 and body-less answers. */
export function toResponse(answer: ApiResponse): Response {
  const headers = new Headers(answer.headers ?? {});
  if (answer.status === 204 || answer.body === undefined)
    return new Response(null, { status: answer.status, headers });
  headers.set('content-type', 'application/json; charset=utf-8');
  return new Response(JSON.stringify(answer.body), { status: answer.status, headers });
}

/** A fetch handler over turns: reads each body (413 beyond the limit) while it waits for its turn. */
function fetchInTurns(turns: ApiTurns, options: BodyLimitOptions): FetchHandler {
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  return (request) => {
    const body = readBodyText(request, limit).catch(() => undefined);
    return turns
      .later(async (): Promise<Turn> => {
        const read = await body;
        if (read === undefined) return { answer: errorAnswer(400, 'The request body could not be read.') };
        if (read.kind === 'too-large') {
          const tooLarge = errorAnswer(413, `The request body is larger than ${limit} bytes.`);
          return { answer: { ...tooLarge, headers: { connection: 'close' } } };
        }
        return { answer: turns.handler(toApiRequest(request, read.text)) };
      })
      .then(toResponse, () => toResponse(internalError()));
  };
}

/**
 * Serves any `ApiHandler` through the fetch API: reads bodies (up to the limit; 413 beyond), calls the
 * handler one request at a time in arrival order, and answers 500 if it throws.
 * @example const serve = createApiFetchHandler((request) => ({ status: 200, body: { path: request.path } }));
 */
export function createApiFetchHandler(handler: ApiHandler, options: BodyLimitOptions = {}): FetchHandler {
  return fetchInTurns(new ApiTurns(handler), options);
}

/** What a host learns about each request once it is applied (see `FetchHandlerOptions.commit`). */
export interface AppliedRequest {
  /** The request as the engine saw it. */
  readonly request: ApiRequest;
  /** The instant it was handled at, as the `now` function gave it. */
  readonly now: string;
  /** Whether the state changed (a new state object); only such requests need saving. */
  readonly changed: boolean;
  /** The state after the request. */
  readonly state: SiteState;
  /** The response the request was answered with. */
  readonly response: ApiResponse;
  /**
   * The outcomes the payment processor gave while handling it, in order (none with the test gateway): a
   * journal keeps them, so that a replay gives the state the processor's answers gave.
   */
  readonly payments: readonly SettledPayment[];
}

/**
 * How `createFetchHandler` keeps and serves a site: where the state starts, the clock, the payment processor,
 * and the hooks around each request.
 */
export interface FetchHandlerOptions extends BodyLimitOptions {
  /** The state to start from; a new site from `site` when absent. */
  readonly state?: SiteState;
  /** The configuration of a new site (ignored when `state` is given). */
  readonly site?: SiteConfig;
  /** The current instant; real time when absent. */
  readonly now?: () => string | Date;
  /**
   * The payment processor: answers each attempt with its outcome or a promise of it (`handleAsync`).
   * While it is answering, the next request waits, since it must see the site the payment leaves. The
   * test gateway when absent.
   */
  readonly payments?: AsyncPaymentGateway;
  /**
   * Answers some requests itself (a host's own routes), in turn with the others; `undefined` passes
   * the request on to the engine.
   */
  readonly intercept?: (request: ApiRequest, state: SiteState) => ApiResponse | undefined;
  /**
   * Called after each request is applied, in order. The response waits for the returned promise (say,
   * a journal flush); when it rejects, the change may not be saved, so this and every later request
   * answers 503 and the host should restart from what it saved.
   */
  readonly commit?: (applied: AppliedRequest) => void | Promise<void>;
  /**
   * Told of every bug the engine hit (answered 500 `Internal error <id>`), for the host's
   * monitoring; by default nothing is done beyond the answer.
   */
  readonly onFault?: (fault: HandleFault, request: ApiRequest) => void;
}

/** A fetch handler over one site, with a view of the site's current state. */
export interface SiteFetchHandler extends FetchHandler {
  /** The site's state after every request answered so far. */
  readonly state: () => SiteState;
}

/** What `createFetchHandler` gives: a site's fetch handler that also answers requests already read. */
export interface SiteHandler extends SiteFetchHandler {
  /**
   * Answers a request the host has already read whole (its body as text), in turn with the requests
   * given to the fetch handler: no `Request` or `Response` is made, which a server that parses HTTP
   * itself (`node:http`) saves.
   */
  readonly answer: (request: ApiRequest) => Promise<ApiResponse>;
}

function reportFault(options: FetchHandlerOptions, fault: HandleFault, request: ApiRequest): void {
  try {
    options.onFault?.(fault, request);
  } catch {
    // A monitoring hook that fails must not take the answer down with it.
  }
}

const toInstantText = (now: string | Date): string => (typeof now === 'string' ? now : now.toISOString());

/**
 * A fetch handler that serves the REST API over one site, keeping its state.
 * @example
 * const app = createFetchHandler({ site: { apiKeys: ['secret'] } });
 * const response = await app(new Request('http://localhost/customers.json', { headers }));
 * app.state(); // the site after every request so far
 */
export function createFetchHandler(options: FetchHandlerOptions = {}): SiteHandler {
  let state = options.state ?? createSite(options.site ?? {});
  let storageFailed = false;
  const clock = options.now ?? (() => new Date());
  const unavailable = errorAnswer(503, 'The site could not save a change; the server must be restarted.');

  /** Takes a request's result as the site's new state, and hands it to `commit`; what to answer. */
  const settle = (
    request: ApiRequest,
    now: string,
    result: HandleResult | ApiResponse,
    payments: readonly SettledPayment[],
  ): ApiResponse | Promise<ApiResponse> => {
    let response: ApiResponse;
    let changed = false;
    if ('state' in result) {
      if (result.fault !== undefined) reportFault(options, result.fault, request);
      changed = result.state !== state;
      state = result.state;
      response = result.response;
    } else response = result;
    if (options.commit === undefined) return response;
    let saved: void | Promise<void>;
    try {
      saved = options.commit({ request, now, changed, state, response, payments });
    } catch {
      storageFailed = true;
      return unavailable;
    }
    if (saved === undefined) return response;
    return saved.then(
      () => response,
      () => {
        storageFailed = true;
        return unavailable;
      },
    );
  };

  const processor = options.payments;
  /** Settles when the request being handled has its state: the next one starts from there. */
  let settled: Promise<void> = Promise.resolve();
  const apply = (request: ApiRequest): ApiResponse | Promise<ApiResponse> => {
    if (processor === undefined) {
      if (storageFailed) return unavailable;
      const intercepted = options.intercept?.(request, state);
      const now = toInstantText(clock());
      return settle(request, now, intercepted ?? handle(state, request, { now }), []);
    }
    // Boxed so that the next request waits for this one's state, not for its journal flush.
    const turn = settled.then(async (): Promise<{ readonly answer: ApiResponse | Promise<ApiResponse> }> => {
      if (storageFailed) return { answer: unavailable };
      const intercepted = options.intercept?.(request, state);
      const now = toInstantText(clock());
      if (intercepted !== undefined) return { answer: settle(request, now, intercepted, []) };
      const result = await handleAsync(state, request, { now, payments: processor });
      return { answer: settle(request, now, result, result.payments) };
    });
    settled = turn.then(
      () => undefined,
      () => undefined,
    );
    return turn.then(({ answer }) => answer);
  };

  const turns = new ApiTurns(apply);
  const fetchHandler = fetchInTurns(turns, options);
  return Object.assign((request: Request) => fetchHandler(request), {
    state: () => state,
    answer: turns.answer,
  });
}
