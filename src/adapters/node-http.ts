/**
 * A small bridge from `node:http` to the engine's request and response shapes: an `IncomingMessage`
 * becomes an `ApiRequest` (method, path with its query string, headers, body as text), the host's
 * handler answers an `ApiResponse`, and that is written back as JSON. Requests are handed to the
 * handler one at a time, in the order they arrived, even when their bodies finish arriving out of order.
 */

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { ApiRequest, ApiResponse } from '../api/types.js';

/** What the bridge calls for each request; it may keep state between calls. */
export type ApiHandler = (request: ApiRequest) => ApiResponse;

export interface NodeHttpOptions {
  /** The largest request body accepted, in bytes; a larger one answers 413. Default 16 MiB. */
  readonly maxBodyBytes?: number;
}

export const DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024;

/** A request body as read from the wire. */
export type BodyRead =
  | { readonly kind: 'ok'; readonly text: string }
  | { readonly kind: 'too-large' }
  | { readonly kind: 'aborted' };

/**
 * Reads a request body as UTF-8 text, stopping at `limit` bytes. A body over the limit is drained (so
 * the client can read the answer) but not kept.
 */
export function readBody(request: IncomingMessage, limit: number): Promise<BodyRead> {
  return new Promise((resolve) => {
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      request.resume();
      resolve({ kind: 'too-large' });
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (result: BodyRead) => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    request.on('data', (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        settle({ kind: 'too-large' });
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => settle({ kind: 'ok', text: Buffer.concat(chunks).toString('utf8') }));
    request.on('aborted', () => settle({ kind: 'aborted' }));
    request.on('error', () => settle({ kind: 'aborted' }));
    request.on('close', () => settle({ kind: 'aborted' }));
  });
}

/** The engine's view of a request: header lists are joined with `, `; an empty body is left out. */
export function toApiRequest(request: IncomingMessage, body: string): ApiRequest {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === 'string') headers[name] = value;
    else if (Array.isArray(value)) headers[name] = value.join(', ');
  }
  const base = { method: request.method ?? 'GET', path: request.url ?? '/', headers };
  return body.length === 0 ? base : { ...base, body };
}

/** Writes a response: JSON with its content type, or no body at all for 204 and body-less answers. */
export function writeResponse(response: ServerResponse, answer: ApiResponse): void {
  if (response.destroyed || response.writableEnded) return;
  for (const [name, value] of Object.entries(answer.headers ?? {})) response.setHeader(name, value);
  if (answer.status === 204 || answer.body === undefined) {
    response.statusCode = answer.status;
    response.setHeader('content-length', '0');
    response.end();
    return;
  }
  const text = JSON.stringify(answer.body);
  response.statusCode = answer.status;
  response.setHeader('content-type', 'application/json; charset=utf-8');
  response.setHeader('content-length', String(Buffer.byteLength(text)));
  response.end(text);
}

const errorAnswer = (status: number, message: string): ApiResponse => ({
  status,
  body: { errors: [message] },
});

/**
 * A `node:http` request listener that serves `handler`. Bodies are read concurrently, but the handler
 * sees requests one at a time, in arrival order.
 * @example createServer(createRequestListener((request) => ({ status: 200, body: { path: request.path } })))
 */
export function createRequestListener(
  handler: ApiHandler,
  options: NodeHttpOptions = {},
): (request: IncomingMessage, response: ServerResponse) => void {
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  let queue: Promise<void> = Promise.resolve();
  return (request, response) => {
    const body = readBody(request, limit);
    queue = queue.then(async () => {
      const read = await body;
      if (read.kind === 'aborted') return;
      if (read.kind === 'too-large') {
        response.setHeader('connection', 'close');
        writeResponse(response, errorAnswer(413, `The request body is larger than ${limit} bytes.`));
        return;
      }
      let answer: ApiResponse;
      try {
        answer = handler(toApiRequest(request, read.text));
      } catch {
        answer = errorAnswer(500, 'Internal server error.');
      }
      writeResponse(response, answer);
    });
  };
}

/** An HTTP server (not yet listening) that serves `handler`. */
export function createHttpServer(handler: ApiHandler, options: NodeHttpOptions = {}): Server {
  return createServer(createRequestListener(handler, options));
}

/** Starts listening; resolves with the bound port (useful with port 0). */
export function listen(server: Server, port: number, host: string): Promise<number> {
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
export function close(server: Server, graceMs = 2000): Promise<void> {
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
