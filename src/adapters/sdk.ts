/**
 * `billing-core/sdk`: the official Maxio Advanced Billing SDK (`@maxio-com/advanced-billing-sdk`, an
 * optional peer dependency) talking to an in-process site, with no socket. A Maxio user's code builds its
 * controllers on the client it returns and runs unchanged; every request goes through the same fetch
 * handler that `billing-core serve` uses, one at a time, in order.
 * @module billing-core/sdk
 */

import { Client, type Configuration } from '@maxio-com/advanced-billing-sdk';
import { createFetchHandler, type FetchHandlerOptions, type SiteFetchHandler } from './fetch.js';

type RequestBuilderFactory = ReturnType<Client['getRequestBuilderFactory']>;
type RequestBuilder = ReturnType<RequestBuilderFactory>;
type Interceptor = Parameters<RequestBuilder['intercept']>[0];
type SdkRequest = Parameters<Interceptor>[0];
type SdkContext = Awaited<ReturnType<Interceptor>>;

/** Where every request appears to go: nothing listens here, the handler answers in-process. */
const IN_PROCESS_ORIGIN = 'http://billing-core.in-process';
/** The host the SDK sends event ingestion to: its first path segment is the site. */
const EVENTS_HOST = 'events.chargify.com';

export interface InProcessSdkOptions extends FetchHandlerOptions {
  /**
   * The SDK's own configuration (`site`, `basicAuthCredentials`, `environment`, ...). By default, the
   * credentials are the site's first API key with password `x`, and `site` is `"local"`. The SDK's
   * retries are off: an in-process call either answers or is a bug.
   */
  readonly sdk?: Partial<Configuration>;
  /** An existing handler to send requests to (say, one a host also serves); a new one when absent. */
  readonly app?: SiteFetchHandler;
}

/** What `createInProcessClient` gives: the SDK client and the fetch handler that answers it. */
export interface InProcessSdk {
  /** The SDK client: pass it to any controller, `new SubscriptionsController(client)`. */
  readonly client: Client;
  /** The handler behind it, with `app.state()` the site after every request so far. */
  readonly app: SiteFetchHandler;
}

/** The path and query a request would have on the real service, whatever host the SDK built. */
function pathOf(url: string): string {
  const parsed = new URL(url);
  const path = parsed.host === EVENTS_HOST ? parsed.pathname.replace(/^\/[^/]+/, '') : parsed.pathname;
  return `${path}${parsed.search}`;
}

function bodyOf(request: SdkRequest): string | undefined {
  const body = request.body;
  if (body === undefined) return undefined;
  if (body.type === 'text') return body.content;
  if (body.type === 'form')
    return new URLSearchParams(
      body.content.map(({ key, value }): [string, string] => [key, value]),
    ).toString();
  throw new TypeError(`billing-core/sdk: a ${body.type} body cannot be sent in-process`);
}

/** An SDK request as a fetch `Request` to the in-process handler. */
function toFetchRequest(request: SdkRequest): Request {
  const headers = new Headers(request.headers ?? {});
  const auth = request.auth;
  if (auth !== undefined && !headers.has('authorization'))
    headers.set('authorization', `Basic ${btoa(`${auth.username}:${auth.password ?? ''}`)}`);
  const body = bodyOf(request);
  return new Request(`${IN_PROCESS_ORIGIN}${pathOf(request.url)}`, {
    method: request.method,
    headers,
    ...(body === undefined ? {} : { body }),
  });
}

/** The last step of every request's interceptor chain: the handler answers instead of the network. */
function inProcess(app: SiteFetchHandler): Interceptor {
  return async (request): Promise<SdkContext> => {
    const response = await app(toFetchRequest(request));
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      headers[name] = value;
    });
    return { request, response: { statusCode: response.status, body: await response.text(), headers } };
  };
}

/** The SDK's client, with every request builder answering in-process. */
class InProcessClient extends Client {
  private readonly local: RequestBuilderFactory;

  constructor(config: Partial<Configuration>, app: SiteFetchHandler) {
    super(config);
    const factory = super.getRequestBuilderFactory();
    const answer = inProcess(app);
    this.local = (method, path) => {
      const builder = factory(method, path);
      builder.intercept(answer);
      return builder;
    };
  }

  override getRequestBuilderFactory(): RequestBuilderFactory {
    return this.local;
  }
}

/**
 * The official SDK's client over an in-process site: the same answers as `billing-core serve`, without
 * a port, a process or a network.
 * @example
 * const { client, app } = createInProcessClient({ site: { apiKeys: ['key'], serviceName: 'chargify' } });
 * const { result } = await new CustomersController(client).listCustomers({});
 */
export function createInProcessClient(options: InProcessSdkOptions = {}): InProcessSdk {
  const app = options.app ?? createFetchHandler(options);
  const apiKey = app.state().settings.apiKeys?.[0] ?? 'key';
  const config: Partial<Configuration> = {
    site: 'local',
    basicAuthCredentials: { username: apiKey, password: 'x' },
    ...options.sdk,
    httpClientOptions: { ...options.sdk?.httpClientOptions, retryConfig: { maxNumberOfRetries: 0 } },
  };
  return { client: new InProcessClient(config, app), app };
}
