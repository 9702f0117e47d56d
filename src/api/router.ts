/** Matches a request path against the route table: literal segments win over placeholders. */
import type { Route } from './route.js';

interface CompiledRoute {
  readonly route: Route;
  readonly segments: readonly Segment[];
  readonly literalCount: number;
}

type Segment =
  | { readonly kind: 'literal'; readonly text: string }
  | {
      readonly kind: 'param';
      readonly name: string;
      readonly suffix: string;
      readonly optionalSuffix: boolean;
    };

function compileSegment(text: string): Segment {
  const param = /^\{([a-z_]+)\}(\.json)?(\?)?$/.exec(text);
  if (param) {
    return { kind: 'param', name: param[1] ?? '', suffix: param[2] ?? '', optionalSuffix: param[3] === '?' };
  }
  return { kind: 'literal', text };
}

export type RouteMatch =
  | { readonly kind: 'found'; readonly route: Route; readonly params: Record<string, string> }
  | { readonly kind: 'method-not-allowed' }
  | { readonly kind: 'not-found' };

/** Builds a matcher over a route table. */
export function createRouter(
  routes: readonly Route[],
): (method: string, segments: readonly string[]) => RouteMatch {
  const compiled: CompiledRoute[] = routes.map((route) => {
    const segments = route.path.split('/').slice(1).map(compileSegment);
    return { route, segments, literalCount: segments.filter((segment) => segment.kind === 'literal').length };
  });
  compiled.sort((a, b) => b.literalCount - a.literalCount);
  // Only routes with as many segments as the path, and whose first segment can be the path's, can
  // match it: each request looks at a few, not all. Every list keeps the order by literal count.
  const byLength = new Map<number, RoutesOfLength>();
  for (const candidate of compiled) {
    const length = candidate.segments.length;
    const routes: RoutesOfLength = byLength.get(length) ?? { byFirst: new Map(), placeholderFirst: [] };
    byLength.set(length, routes);
    const first = candidate.segments[0];
    if (first?.kind !== 'literal') {
      routes.placeholderFirst.push(candidate);
      for (const list of routes.byFirst.values()) list.push(candidate);
      continue;
    }
    for (const text of formsOf(first.text)) {
      const list = routes.byFirst.get(text) ?? [...routes.placeholderFirst];
      routes.byFirst.set(text, list);
      if (!list.includes(candidate)) list.push(candidate);
    }
  }
  const candidatesOf = (segments: readonly string[]): readonly CompiledRoute[] => {
    const routes = byLength.get(segments.length);
    if (routes === undefined) return [];
    return routes.byFirst.get(segments[0] ?? '') ?? routes.placeholderFirst;
  };
  return (method, segments) => {
    // The most literal segments a template matching the path has: a path that names a fixed segment
    // (`/subscriptions/lookup.json`) is that operation's, whatever the method, and is never taken by a
    // template with a placeholder there (`/subscriptions/{id}.json`).
    let matchedLiterals = -1;
    for (const candidate of candidatesOf(segments)) {
      if (candidate.literalCount < matchedLiterals) break;
      if (!literalsMatch(candidate.segments, segments)) continue;
      const params = paramsOf(candidate.segments, segments);
      if (params === undefined) continue;
      if (candidate.route.method === method) return { kind: 'found', route: candidate.route, params };
      matchedLiterals = candidate.literalCount;
    }
    return matchedLiterals >= 0 ? { kind: 'method-not-allowed' } : { kind: 'not-found' };
  };
}

/** The routes of one path length: by the first segment they accept, and those with a placeholder there. */
interface RoutesOfLength {
  readonly byFirst: Map<string, CompiledRoute[]>;
  readonly placeholderFirst: CompiledRoute[];
}

/** The first segments a literal matches: itself, and for `x.json?` also `x` and `x.json`. */
const formsOf = (text: string): readonly string[] =>
  text.endsWith('.json?') ? [text, text.slice(0, -6), text.slice(0, -1)] : [text];

/** Whether every literal segment of a template of the path's length matches (no allocation). */
function literalsMatch(template: readonly Segment[], actual: readonly string[]): boolean {
  for (let i = 0; i < template.length; i += 1) {
    const segment = template[i];
    if (segment === undefined || segment.kind !== 'literal') continue;
    const value = actual[i] ?? '';
    if (segment.text === value) continue;
    if (
      segment.text.endsWith('.json?') &&
      (value === segment.text.slice(0, -6) || `${value}?` === segment.text)
    )
      continue;
    return false;
  }
  return true;
}

/** The placeholders' values, once the literals matched, or undefined when one is empty or lacks its suffix. */
function paramsOf(
  template: readonly Segment[],
  actual: readonly string[],
): Record<string, string> | undefined {
  const params: Record<string, string> = {};
  for (let i = 0; i < template.length; i += 1) {
    const segment = template[i];
    if (segment === undefined || segment.kind !== 'param') continue;
    const value = actual[i] ?? '';
    let body = value;
    if (segment.suffix) {
      if (value.endsWith(segment.suffix)) body = value.slice(0, -segment.suffix.length);
      else if (!segment.optionalSuffix) return undefined;
    }
    if (body.length === 0) return undefined;
    params[segment.name] = body;
  }
  return params;
}
