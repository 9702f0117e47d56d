/**
 * A small bridge from `node:http` (or `node:https`) to a fetch handler: an `IncomingMessage` becomes a
 * `Request` (its body streamed), and the handler's `Response` is written back. Body limits, ordering and
 * the engine's shapes live in the fetch handler (`fetch.ts`).
 */

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import {
  type ApiHandler,
  type BodyLimitOptions,
  createApiFetchHandler,
  type FetchHandler,
  toResponse,
} from './fetch.js';

export { type ApiHandler, DEFAULT_MAX_BODY_BYTES } from './fetch.js';

/** A server the bridge runs on: plain HTTP, or HTTPS. */
export type NodeServer = Server | HttpsServer;

export interface TlsFiles {
  /** PEM certificate chain. */
  readonly cert: string | Buffer;
  /** PEM private key. */
  readonly key: string | Buffer;
}

export interface NodeServerOptions {
  /** Serve HTTPS with these credentials; TLS 1.2 is the oldest version accepted. */
  readonly tls?: TlsFiles;
}

/**
 * The request body as a web stream. Cancelling it (a body over the limit) drains the rest rather than
 * cutting the connection, so the client can still read the answer.
 */
function bodyStream(incoming: IncomingMessage): ReadableStream<Uint8Array> {
  let open = true;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      incoming.on('data', (chunk: Buffer) => {
        if (open) controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      });
      incoming.on('end', () => {
        if (open) controller.close();
        open = false;
      });
      incoming.on('close', () => {
        if (open && !incoming.complete) controller.error(new Error('The client went away.'));
        open = false;
      });
    },
    cancel() {
      open = false;
      incoming.resume();
    },
  });
}

/** The fetch API's view of a node request; the path is kept as sent (no base URL resolution). */
function toRequest(incoming: IncomingMessage): Request {
  const headers = new Headers();
  const raw = incoming.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i] ?? '', raw[i + 1] ?? '');
  const method = incoming.method ?? 'GET';
  const url = `http://localhost${incoming.url?.startsWith('/') ? incoming.url : '/'}`;
  if (method === 'GET' || method === 'HEAD') {
    incoming.resume();
    return new Request(url, { method, headers });
  }
  return new Request(url, { method, headers, body: bodyStream(incoming), duplex: 'half' });
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

/**
 * A `node:http` request listener over a fetch handler.
 * @example createServer(createRequestListener(createFetchHandler({ site: { apiKeys: ['secret'] } })))
 */
export function createRequestListener(
  handler: FetchHandler,
): (request: IncomingMessage, response: ServerResponse) => void {
  return (incoming, response) => {
    let request: Request;
    try {
      request = toRequest(incoming);
    } catch {
      // The fetch API refuses some methods (CONNECT, TRACE) and malformed headers outright.
      incoming.resume();
      void writeResponse(response, toResponse({ status: 400, body: { errors: ['Bad request.'] } }));
      return;
    }
    handler(request).then(
      (answer) => writeResponse(response, answer),
      () =>
        writeResponse(response, toResponse({ status: 500, body: { errors: ['Internal server error.'] } })),
    );
  };
}

/** A server (not yet listening) over a fetch handler; HTTPS when `options.tls` is given. */
export function createNodeServer(handler: FetchHandler, options: NodeServerOptions = {}): NodeServer {
  const listener = createRequestListener(handler);
  if (options.tls === undefined) return createServer(listener);
  return createHttpsServer({ cert: options.tls.cert, key: options.tls.key, minVersion: 'TLSv1.2' }, listener);
}

/** An HTTP server (not yet listening) that serves an `ApiHandler` (see `createApiFetchHandler`). */
export function createHttpServer(handler: ApiHandler, options: BodyLimitOptions = {}): NodeServer {
  return createNodeServer(createApiFetchHandler(handler, options));
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
