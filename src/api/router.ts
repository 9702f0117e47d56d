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
  return (method, segments) => {
    let pathMatched = false;
    for (const candidate of compiled) {
      const params = matchSegments(candidate.segments, segments);
      if (params === undefined) continue;
      if (candidate.route.method === method) return { kind: 'found', route: candidate.route, params };
      pathMatched = true;
    }
    return pathMatched ? { kind: 'method-not-allowed' } : { kind: 'not-found' };
  };
}

function matchSegments(
  template: readonly Segment[],
  actual: readonly string[],
): Record<string, string> | undefined {
  if (template.length !== actual.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < template.length; i += 1) {
    const segment = template[i];
    const value = actual[i] ?? '';
    if (segment === undefined) return undefined;
    if (segment.kind === 'literal') {
      if (segment.text === value) continue;
      if (
        segment.text.endsWith('.json?') &&
        (value === segment.text.slice(0, -6) || `${value}?` === segment.text)
      )
        continue;
      return undefined;
    }
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
