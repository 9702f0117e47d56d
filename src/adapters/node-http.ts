/**
 * A small bridge from `node:http` (or `node:https`) to the engine: an `IncomingMessage` becomes the
 * engine's request (or a fetch `Request`, for a fetch handler), and the answer is written back.
 *
 * No client can stall the others: credentials are checked from the headers before any byte of
 * the body is read (a 401 leaves the body unread), and the whole body is read and size-checked here,
 * outside the handler's one-at-a-time queue, within a deadline (408 after it). Headers and whole requests
 * are bounded too (`headersTimeout`, `requestTimeout`). The handler sees complete requests only, in the
 * order their bodies finished arriving.
 */

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { ApiRequest, ApiResponse } from '../api/types.js';
import { type BodyLimitOptions, DEFAULT_MAX_BODY_BYTES, type FetchHandler } from './fetch.js';
import { type ApiHandler, ApiTurns, errorAnswer } from './turns.js';

export { type ApiHandler, DEFAULT_MAX_BODY_BYTES } from './fetch.js';

/** A server the bridge runs on: plain HTTP, or HTTPS. */
export type NodeServer = Server | HttpsServer;

export interface TlsFiles {
  /** PEM certificate chain. */
  readonly cert: string | Buffer;
  /** PEM private key. */
  readonly key: string | Buffer;
}

/** Time limits on what a client sends, in milliseconds. */
export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
export const DEFAULT_BODY_TIMEOUT_MS = 10_000;
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/** How long a connection answered early (401, 408, 413) may go on sending before it is cut. */
const EARLY_ANSWER_GRACE_MS = 1000;

export interface NodeServerOptions {
  /** Serve HTTPS with these credentials; TLS 1.2 is the oldest version accepted. */
  readonly tls?: TlsFiles;
  /** The largest request body accepted, in bytes; a larger one answers 413 unread. Default 16 MiB. */
  readonly maxBodyBytes?: number;
  /** Time for the request headers (`server.headersTimeout`). Default 10 s. */
  readonly headersTimeoutMs?: number;
  /** Time for the body once the headers are in; 408 after it. Default 10 s. */
  readonly bodyTimeoutMs?: number;
  /** Time for the whole request (`server.requestTimeout`). Default 30 s. */
  readonly requestTimeoutMs?: number;
  /**
   * Checks a request from its method, path and headers, before its body is read: an answer (a 401, say)
   * is sent at once and the body is never read; `undefined` lets the request through.
   */
  readonly authorize?: (request: ApiRequest) => ApiResponse | undefined;
}

/** Header names lower-cased, repeated ones joined, in name order (as `Headers` lists them). */
function headersOf(incoming: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  const raw = incoming.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = (raw[i] ?? '').toLowerCase();
    const value = raw[i + 1] ?? '';
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  const inOrder: Record<string, string> = {};
  for (const name of Object.keys(headers).sort()) inOrder[name] = headers[name] ?? '';
  return inOrder;
}

type BodyRead =
  | { readonly kind: 'ok'; readonly bytes: Buffer }
  | { readonly kind: 'too-large' }
  | { readonly kind: 'timeout' }
  | { readonly kind: 'gone' };

/** Reads the whole body, up to `limit` bytes and within `timeoutMs`. */
function readBody(incoming: IncomingMessage, limit: number, timeoutMs: number): Promise<BodyRead> {
  const declared = Number(incoming.headers['content-length'] ?? Number.NaN);
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve({ kind: 'too-large' });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (read: BodyRead) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('close', onClose);
      resolve(read);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) finish({ kind: 'too-large' });
      else chunks.push(chunk);
    };
    const onEnd = () => finish({ kind: 'ok', bytes: Buffer.concat(chunks, size) });
    const onClose = () =>
      finish(incoming.complete ? { kind: 'ok', bytes: Buffer.concat(chunks, size) } : { kind: 'gone' });
    const timer = setTimeout(() => finish({ kind: 'timeout' }), timeoutMs);
    incoming.on('data', onData);
    incoming.on('end', onEnd);
    incoming.on('close', onClose);
  });
}

/** The path as sent, resolved as the fetch API resolves a request's URL (dot segments, escapes). */
function pathOf(incoming: IncomingMessage): string {
  const url = new URL(`http://localhost${incoming.url?.startsWith('/') ? incoming.url : '/'}`);
  return `${url.pathname}${url.search}`;
}

/** Methods the fetch API refuses outright; they are refused here too, whichever way a request goes. */
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

/** The fetch API's view of a complete node request; the path is kept as sent (no base URL resolution). */
function toRequest(incoming: IncomingMessage, body: Buffer | undefined): Request {
  const headers = new Headers();
  const raw = incoming.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i] ?? '', raw[i + 1] ?? '');
  const method = incoming.method ?? 'GET';
  const url = `http://localhost${incoming.url?.startsWith('/') ? incoming.url : '/'}`;
  if (method === 'GET' || method === 'HEAD' || body === undefined)
    return new Request(url, { method, headers });
  return new Request(url, {
    method,
    headers,
    body: new Uint8Array(body.buffer, body.byteOffset, body.length),
  });
}

const utf8 = new TextDecoder();

/**
 * The engine's view of a complete node request, the same as a fetch handler would give it: header names
 * lower-cased and in order, repeated ones joined; the body decoded as UTF-8 (a byte order mark dropped),
 * left out when empty; no body for GET and HEAD.
 */
function toApiRequest(
  incoming: IncomingMessage,
  body: Buffer | undefined,
  headers: Readonly<Record<string, string>>,
): ApiRequest {
  const method = incoming.method ?? 'GET';
  if (FORBIDDEN_METHODS.has(method)) throw new TypeError(`${method} is not served`);
  const base = { method, path: pathOf(incoming), headers };
  if (method === 'GET' || method === 'HEAD' || body === undefined || body.length === 0) return base;
  const text = utf8.decode(body);
  return text.length === 0 ? base : { ...base, body: text };
}

async function writeResponse(response: ServerResponse, answer: Response): Promise<void> {
  const body = answer.body === null ? undefined : Buffer.from(await answer.arrayBuffer());
  if (response.destroyed || response.writableEnded) return;
  response.statusCode = answer.status;
  answer.headers.forEach((value, name) => {
    response.setHeader(name, value);
  });
  response.setHeader('content-length', String(body?.length ?? 0));
  response.end(body);
}

/** Writes an engine answer as a fetch handler's `Response` of it would be written: the same bytes. */
function writeAnswer(response: ServerResponse, answer: ApiResponse): void {
  if (response.destroyed || response.writableEnded) return;
  const hasBody = answer.status !== 204 && answer.body !== undefined;
  const text = hasBody ? JSON.stringify(answer.body) : undefined;
  const headers = namesInOrder(answer.headers ?? {});
  if (text !== undefined) headers.set('content-type', 'application/json; charset=utf-8');
  response.statusCode = answer.status;
  for (const name of [...headers.keys()].sort()) response.setHeader(name, headers.get(name) ?? '');
  // Written as text: node encodes it into the socket's buffer, with no copy of our own first.
  response.setHeader('content-length', String(text === undefined ? 0 : Buffer.byteLength(text, 'utf8')));
  if (text === undefined) response.end();
  else response.end(text, 'utf8');
}

const HTTP_WHITESPACE_AROUND = /^[\t\n\r ]+|[\t\n\r ]+$/g;

/** Header names lower-cased, values of names repeated in other cases joined, as `Headers` does. */
function namesInOrder(headers: Readonly<Record<string, string>>): Map<string, string> {
  const named = new Map<string, string>();
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    const trimmed = value.replace(HTTP_WHITESPACE_AROUND, '');
    const before = named.get(lower);
    named.set(lower, before === undefined ? trimmed : `${before}, ${trimmed}`);
  }
  return named;
}

/** Writes an answer, or 500 when it cannot be written (a status outside 200-599, a body JSON refuses). */
function writeAnswerOr500(response: ServerResponse, answer: ApiResponse): void {
  const valid = Number.isInteger(answer.status) && answer.status >= 200 && answer.status <= 599;
  try {
    writeAnswer(response, valid ? answer : errorAnswer(500, 'Internal server error.'));
  } catch {
    for (const name of response.getHeaderNames()) response.removeHeader(name);
    writeAnswer(response, errorAnswer(500, 'Internal server error.'));
  }
}

/**
 * Answers before (or instead of) reading the body, and closes the connection: what the client still
 * sends is discarded, and the connection is cut if it goes on past a grace period.
 */
function answerEarly(incoming: IncomingMessage, response: ServerResponse, answer: ApiResponse): void {
  const headers = { ...(answer.headers ?? {}), connection: 'close' };
  writeAnswerOr500(response, { ...answer, headers });
  if (incoming.complete) return;
  incoming.resume();
  const cut = setTimeout(() => incoming.socket?.destroy(), EARLY_ANSWER_GRACE_MS);
  cut.unref();
  incoming.socket?.once('close', () => clearTimeout(cut));
}

/** How a bridge turns a complete node request into its handler's request, and writes the answer back. */
interface Bridge<R, A> {
  /** Throws when the request cannot be served at all (answered 400). */
  readonly convert: (
    incoming: IncomingMessage,
    body: Buffer | undefined,
    headers: Record<string, string>,
  ) => R;
  readonly send: (request: R) => Promise<A>;
  readonly write: (response: ServerResponse, answer: A) => void | Promise<void>;
}

/**
 * Checks credentials from the headers, reads the body within its limits, then hands the complete request
 * over the bridge and writes the answer (400 when it cannot be converted, 500 when the handler fails).
 */
function listener<R, A>(
  bridge: Bridge<R, A>,
  options: Omit<NodeServerOptions, 'tls' | 'headersTimeoutMs' | 'requestTimeoutMs'>,
): (request: IncomingMessage, response: ServerResponse) => void {
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const bodyTimeout = options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS;
  const dispatch = (
    incoming: IncomingMessage,
    body: Buffer | undefined,
    headers: Record<string, string>,
    response: ServerResponse,
  ) => {
    let request: R;
    try {
      request = bridge.convert(incoming, body, headers);
    } catch {
      // The fetch API refuses some methods (CONNECT, TRACE) and malformed headers outright; the direct
      // bridge refuses the same methods.
      writeAnswerOr500(response, errorAnswer(400, 'Bad request.'));
      return;
    }
    bridge.send(request).then(
      (answer) => bridge.write(response, answer),
      () => writeAnswerOr500(response, errorAnswer(500, 'Internal server error.')),
    );
  };
  return (incoming, response) => {
    const method = incoming.method ?? 'GET';
    const headers = headersOf(incoming);
    const refused = options.authorize?.({ method, path: incoming.url ?? '/', headers });
    if (refused !== undefined) {
      answerEarly(incoming, response, refused);
      return;
    }
    const hasBody = method !== 'GET' && method !== 'HEAD';
    if (!hasBody) {
      incoming.resume();
      dispatch(incoming, undefined, headers, response);
      return;
    }
    void readBody(incoming, limit, bodyTimeout).then((read) => {
      if (read.kind === 'gone') return;
      if (read.kind === 'too-large') {
        answerEarly(incoming, response, errorAnswer(413, `The request body is larger than ${limit} bytes.`));
        return;
      }
      if (read.kind === 'timeout') {
        answerEarly(
          incoming,
          response,
          errorAnswer(408, `The request body did not arrive within ${bodyTimeout / 1000} seconds.`),
        );
        return;
      }
      dispatch(incoming, read.bytes, headers, response);
    });
  };
}

/**
 * A `node:http` request listener over a fetch handler.
 * @example createServer(createRequestListener(createFetchHandler({ site: { apiKeys: ['secret'] } })))
 */
export function createRequestListener(
  handler: FetchHandler,
  options: Omit<NodeServerOptions, 'tls' | 'headersTimeoutMs' | 'requestTimeoutMs'> = {},
): (request: IncomingMessage, response: ServerResponse) => void {
  return listener({ convert: toRequest, send: handler, write: writeResponse }, options);
}

/**
 * A `node:http` request listener over a function that answers complete requests in turn (a site's
 * `answer`, or `ApiTurns`): no fetch `Request` or `Response` is made on the way.
 */
export function createAnswerListener(
  answer: (request: ApiRequest) => Promise<ApiResponse>,
  options: Omit<NodeServerOptions, 'tls' | 'headersTimeoutMs' | 'requestTimeoutMs'> = {},
): (request: IncomingMessage, response: ServerResponse) => void {
  return listener({ convert: toApiRequest, send: answer, write: writeAnswerOr500 }, options);
}

/** A server (not yet listening) over a request listener, with the time limits on what clients send. */
function serverOver(
  listener: (request: IncomingMessage, response: ServerResponse) => void,
  options: NodeServerOptions,
): NodeServer {
  const headersTimeout = options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS;
  const requestTimeout = Math.max(
    options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    headersTimeout + (options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS),
  );
  const limits = {
    headersTimeout,
    requestTimeout,
    // How often those limits are checked (Node's default is every 30 s).
    connectionsCheckingInterval: Math.min(1000, headersTimeout),
  };
  if (options.tls === undefined) return createServer(limits, listener);
  return createHttpsServer(
    { ...limits, cert: options.tls.cert, key: options.tls.key, minVersion: 'TLSv1.2' },
    listener,
  );
}

/** A server (not yet listening) over a fetch handler; HTTPS when `options.tls` is given. */
export function createNodeServer(handler: FetchHandler, options: NodeServerOptions = {}): NodeServer {
  return serverOver(createRequestListener(handler, options), options);
}

/**
 * A server (not yet listening) over a function that answers complete requests in turn (a site's
 * `answer`); HTTPS when `options.tls` is given.
 */
export function createAnswerServer(
  answer: (request: ApiRequest) => Promise<ApiResponse>,
  options: NodeServerOptions = {},
): NodeServer {
  return serverOver(createAnswerListener(answer, options), options);
}

/** An HTTP server (not yet listening) that serves an `ApiHandler`, one request at a time in arrival order. */
export function createHttpServer(
  handler: ApiHandler,
  options: BodyLimitOptions & Omit<NodeServerOptions, 'tls'> = {},
): NodeServer {
  return createAnswerServer(new ApiTurns(handler).answer, options);
}

/** Starts listening; resolves with the bound port (useful with port 0). */
export function listen(server: NodeServer, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      const address = server.address();
      resolve(typeof address === 'object' && address !== null ? address.port : port);
    });
  });
}

/**
 * Stops accepting connections, ends idle keep-alive connections, and resolves once closed. Connections
 * still busy after `graceMs` (a client that never finishes its request) are cut.
 */
export function close(server: NodeServer, graceMs = 2000): Promise<void> {
  return new Promise((resolve) => {
    const cut = setTimeout(() => server.closeAllConnections(), graceMs);
    cut.unref();
    server.close(() => {
      clearTimeout(cut);
      resolve();
    });
    server.closeIdleConnections();
  });
}
