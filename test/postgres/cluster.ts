/** Helpers to run `billing-core serve --database-url` processes and `sites` commands in tests. */

import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { finished, runCliProcess, startCliDirect, waitForLine } from '../cli/spawn-cli.js';

const LISTENING = /listening on (http:\/\/127\.0\.0\.1:\d+)/;

/** A serving process. */
export interface ServeProcess {
  readonly url: string;
  readonly child: ChildProcessWithoutNullStreams;
  readonly exited: Promise<{ code: number | null; stderr: string }>;
}

/** Starts `serve --database-url` on a free port; resolves once it listens. */
export async function startServe(url: string, extra: readonly string[] = []): Promise<ServeProcess> {
  const child = startCliDirect(['serve', '--database-url', url, '--port', '0', ...extra]);
  const exited = finished(child);
  const [, address] = await waitForLine(child, LISTENING);
  if (address === undefined) throw new Error('no address');
  return { url: address, child, exited };
}

/** Creates a site through the CLI. */
export async function createSites(url: string, subdomains: readonly string[], key: (s: string) => string) {
  for (const subdomain of subdomains) {
    const done = await runCliProcess([
      'sites',
      'create',
      subdomain,
      '--database-url',
      url,
      '--api-key',
      key(subdomain),
    ]);
    if (done.code !== 0) throw new Error(`sites create ${subdomain}: ${done.stderr}`);
  }
}

/** A request with a Host header of the caller's choice (fetch does not let one be set). */
export function requestWithHost(
  url: string,
  host: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const text = body === undefined ? undefined : JSON.stringify(body);
    const sent = httpRequest(
      `${url}${path}`,
      {
        method,
        headers: {
          ...headers,
          host,
          ...(text === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }),
        },
      },
      (response) => {
        let data = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          data += chunk;
        });
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            body: data.length === 0 ? undefined : JSON.parse(data),
          }),
        );
      },
    );
    sent.on('error', reject);
    sent.end(text);
  });
}
