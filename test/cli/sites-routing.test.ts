/** Which site a request is for (Host or path prefix), and the flags of `serve --database-url`. */

import { describe, expect, it } from 'vitest';
import { multiSiteOptions, wantsDatabase } from '../../src/cli/sites/options.js';
import { routeOf } from '../../src/cli/sites/routing.js';

describe('routing a request to its site', () => {
  it('takes the first label of the host, as the official SDK sends {subdomain}.chargify.com', () => {
    expect(routeOf('/customers.json?page=2', 'acme.chargify.com')).toEqual({
      subdomain: 'acme',
      path: '/customers.json?page=2',
    });
    expect(routeOf('/customers.json', 'Acme.localhost:3000')).toEqual({
      subdomain: 'acme',
      path: '/customers.json',
    });
  });

  it('names no site for a bare host, an IP address or a label that is not a subdomain', () => {
    for (const host of [
      'localhost',
      'localhost:3000',
      '127.0.0.1:3000',
      '[::1]:3000',
      'a_b.example.com',
      null,
    ])
      expect(routeOf('/customers.json', host), String(host)).toBeUndefined();
  });

  it('takes a path prefix /_sites/{subdomain}/ over the host', () => {
    expect(routeOf('/_sites/beta/customers.json?x=1', 'acme.example.com')).toEqual({
      subdomain: 'beta',
      path: '/customers.json?x=1',
    });
    expect(routeOf('/_sites/beta', null)).toEqual({ subdomain: 'beta', path: '/' });
    expect(routeOf('/_sites/beta?x=1', null)).toEqual({ subdomain: 'beta', path: '/?x=1' });
    expect(routeOf('/_sites/Not_One/customers.json', 'acme.example.com')).toBeUndefined();
    // The official /sites/clear_data.json is an operation of the site the host names, not a prefix.
    expect(routeOf('/sites/clear_data.json', 'acme.example.com')).toEqual({
      subdomain: 'acme',
      path: '/sites/clear_data.json',
    });
  });
});

describe('serve --database-url flags', () => {
  it('is chosen by --database-url, with defaults, and refuses single-site flags', () => {
    expect(wantsDatabase(['--port', '1', '--database-url=postgres://x'])).toBe(true);
    expect(wantsDatabase(['--api-key', 'k'])).toBe(false);
    expect(multiSiteOptions(['--database-url', 'postgres://x'])).toEqual({
      ok: true,
      value: {
        databaseUrl: 'postgres://x',
        host: '127.0.0.1',
        port: 3000,
        leaseMs: 5000,
        idleMs: 60_000,
        snapshotEvery: 1000,
      },
    });
    const refused = multiSiteOptions(['--database-url', 'postgres://x', '--api-key', 'k']);
    expect(refused.ok).toBe(false);
    expect(refused.ok ? '' : refused.error).toContain('sites create');
    expect(multiSiteOptions(['--database-url', 'postgres://x', '--lease-ms', '10']).ok).toBe(false);
    expect(multiSiteOptions(['--database-url', '']).ok).toBe(false);
  });
});
