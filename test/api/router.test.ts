import { describe, expect, it } from 'vitest';
import type { Route } from '../../src/api/route.js';
import { createRouter, type RouteMatch } from '../../src/api/router.js';
import { routes } from '../../src/api/routes.js';

// The router looks only at routes of the path's length whose first segment can be the path's. What it
// answers must be what a scan of every route gives: the matching template with the most literal
// segments, whatever the method; the one of the request's method among those.

const isPlaceholder = (segment: string) => segment.startsWith('{');

function matches(template: string, segment: string): boolean {
  if (!isPlaceholder(template)) {
    if (template === segment) return true;
    return template.endsWith('.json?') && (segment === template.slice(0, -6) || `${segment}?` === template);
  }
  const suffix = /\}(\.json)?(\?)?$/.exec(template);
  const json = suffix?.[1] !== undefined;
  const optional = suffix?.[2] === '?';
  const body = json && segment.endsWith('.json') ? segment.slice(0, -5) : segment;
  if (json && !optional && !segment.endsWith('.json')) return false;
  return body.length > 0;
}

/** The reference: every route scanned. */
function scan(method: string, segments: readonly string[]): RouteMatch['kind'] | Route {
  const literals = (route: Route) =>
    route.path
      .split('/')
      .slice(1)
      .filter((s) => !isPlaceholder(s)).length;
  const fitting = (routes as readonly Route[]).filter((route) => {
    const template = route.path.split('/').slice(1);
    return template.length === segments.length && template.every((t, i) => matches(t, segments[i] ?? ''));
  });
  if (fitting.length === 0) return 'not-found';
  const most = Math.max(...fitting.map(literals));
  const best = fitting.filter((route) => literals(route) === most && route.method === method);
  return best[0] ?? 'method-not-allowed';
}

/** Paths to ask: each template filled in several ways, and some that fit none. */
function pathsToAsk(): string[][] {
  const paths: string[][] = [['nothing.json'], ['subscriptions', '12', 'nothing.json'], []];
  for (const route of routes as readonly Route[]) {
    const template = route.path.split('/').slice(1);
    for (const fill of ['42', 'lookup', 'x.json', '']) {
      paths.push(
        template.map((s) => (isPlaceholder(s) ? `${fill}${s.includes('.json') ? '.json' : ''}` : s)),
      );
      paths.push(template.map((s) => (s.endsWith('.json?') ? s.slice(0, -6) : isPlaceholder(s) ? fill : s)));
    }
  }
  return paths;
}

describe('router', () => {
  it('answers what a scan of every route answers, for every template filled in and for paths fitting none', () => {
    const route = createRouter(routes);
    const methods = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'];
    let found = 0;
    for (const segments of pathsToAsk())
      for (const method of methods) {
        const got = route(method, segments);
        const expected = scan(method, segments);
        if (typeof expected === 'string') expect(got.kind, `${method} /${segments.join('/')}`).toBe(expected);
        else {
          found += 1;
          expect(got.kind === 'found' ? got.route : got.kind, `${method} /${segments.join('/')}`).toBe(
            expected,
          );
        }
      }
    expect(found).toBeGreaterThan(routes.length);
  });
});
