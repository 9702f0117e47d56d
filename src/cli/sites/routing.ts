/**
 * Which site a request is for: the first label of its Host (`acme.example.com`, as the official SDK
 * sends `{subdomain}.chargify.com`), or, for clients that cannot set a host, a path prefix
 * `/_sites/{subdomain}/…` (which wins over the host, and is how processes forward to one another).
 */

import { SUBDOMAIN } from '../../adapters/postgres/store.js';

/** The path prefix that names a site. */
export const SITE_PREFIX = '/_sites/';

/** A request's site and its path within the site (with the query string). */
export interface Routed {
  readonly subdomain: string;
  readonly path: string;
}

const isIpLiteral = (host: string) => host.startsWith('[') || /^[\d.]+$/.test(host);

/** The site a request names, if it names one. */
export function routeOf(pathWithQuery: string, host: string | null): Routed | undefined {
  if (pathWithQuery.startsWith(SITE_PREFIX)) {
    const rest = pathWithQuery.slice(SITE_PREFIX.length);
    const end = rest.search(/[/?]/);
    const subdomain = end < 0 ? rest : rest.slice(0, end);
    if (!SUBDOMAIN.test(subdomain)) return undefined;
    const path = end < 0 ? '/' : rest.slice(end);
    return { subdomain, path: path.startsWith('/') ? path : `/${path}` };
  }
  if (host === null) return undefined;
  const name = host.replace(/:\d+$/, '').toLowerCase();
  if (isIpLiteral(name)) return undefined;
  const labels = name.split('.');
  const first = labels[0];
  if (labels.length < 2 || first === undefined || !SUBDOMAIN.test(first)) return undefined;
  return { subdomain: first, path: pathWithQuery };
}
