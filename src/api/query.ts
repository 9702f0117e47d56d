import { keepLayoutOf } from '../kernel/kept-layouts.js';

/**
 * Query strings: empty pairs are ignored, `filter[x]=1` and `resume[require_resume]`
 * become dotted names (`filter.x`), lists are comma-separated. Values live in a Map, so no key can reach an
 * object prototype.
 */
export interface QueryParams {
  /** The last value of a parameter (`'filter.date_field'` for `filter[date_field]`). */
  get(name: string): string | undefined;
  /** Every value of a parameter, comma lists split, blanks dropped. */
  list(name: string): string[];
  has(name: string): boolean;
  /** Names of every parameter given. */
  names(): string[];
}

const MAX_PAIRS = 200;

function normalizeName(raw: string): string {
  return raw.replace(/\[\]$/, '').replace(/\[([^\]]*)\]/g, '.$1');
}

function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/** The parameters as parsed: a class rather than closures, because every request builds one. */
class ParsedQuery implements QueryParams {
  constructor(private readonly values: ReadonlyMap<string, readonly string[]>) {}

  get(name: string): string | undefined {
    return this.values.get(name)?.at(-1);
  }

  list(name: string): string[] {
    return (this.values.get(name) ?? [])
      .flatMap((value) => value.split(','))
      .map((value) => value.trim())
      .filter((value) => value.length > 0);
  }

  has(name: string): boolean {
    return this.values.has(name);
  }

  names(): string[] {
    return [...this.values.keys()];
  }
}

const NO_PARAMETERS = new ParsedQuery(new Map());

function addValue(values: Map<string, string[]>, name: string, value: string): void {
  const key = normalizeName(name);
  if (key.length === 0) return;
  const existing = values.get(key);
  if (existing) existing.push(value);
  else values.set(key, [value]);
}

/**
 * Parses a raw query string and an already-split query object into one `QueryParams`, or returns
 * undefined when the text is not valid percent-encoding.
 * @example parseQuery('a=1&&filter[x]=2', undefined)?.get('filter.x') // '2'
 */
export function parseQuery(
  text: string,
  extra: Readonly<Record<string, string | readonly string[]>> | undefined,
): QueryParams | undefined {
  if (text.length === 0 && extra === undefined) return NO_PARAMETERS;
  const values = new Map<string, string[]>();
  const pairs = text.split('&').filter((pair) => pair.length > 0);
  if (pairs.length > MAX_PAIRS) return undefined;
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    const name = safeDecode(at < 0 ? pair : pair.slice(0, at));
    const value = safeDecode(at < 0 ? '' : pair.slice(at + 1));
    if (name === undefined || value === undefined) return undefined;
    addValue(values, name, value);
  }
  if (extra) {
    for (const name of Object.keys(extra)) {
      const value = extra[name];
      if (typeof value === 'string') addValue(values, name, value);
      else if (Array.isArray(value))
        for (const item of value) if (typeof item === 'string') addValue(values, name, item);
    }
  }
  return new ParsedQuery(values);
}

/**
 * A route's view of the query: only the parameters it declares (`Route.query`) can be read. The
 * declaration is what the wire types and the OpenAPI document say a route accepts, so a read of an
 * undeclared name is a bug in the route, and fails loudly rather than letting the two drift apart.
 */
class DeclaredQuery implements QueryParams {
  constructor(
    private readonly query: QueryParams,
    private readonly declared: ReadonlySet<string>,
    private readonly route: string,
  ) {}

  private check(name: string): string {
    if (!this.declared.has(name))
      throw new Error(`${this.route} reads the query parameter "${name}", which it does not declare`);
    return name;
  }

  get(name: string): string | undefined {
    return this.query.get(this.check(name));
  }

  list(name: string): string[] {
    return this.query.list(this.check(name));
  }

  has(name: string): boolean {
    return this.query.has(this.check(name));
  }

  names(): string[] {
    return this.query.names().filter((name) => this.declared.has(name));
  }
}

// Full collections must not take this class's hidden class away between requests (kept-layouts.ts).
keepLayoutOf(new DeclaredQuery(keepLayoutOf(new ParsedQuery(new Map())), new Set(), ''));

const declaredSets = new WeakMap<readonly string[], ReadonlySet<string>>();
/** One list for every route that declares no parameter, so that its set is made once, not per request. */
const NONE: readonly string[] = [];

/** The query as a route may read it: the parameters `names` declares. */
export function declaredQuery(
  query: QueryParams,
  names: readonly string[] | undefined,
  route: string,
): QueryParams {
  const list = names ?? NONE;
  let declared = declaredSets.get(list);
  if (declared === undefined) {
    declared = new Set(list);
    declaredSets.set(list, declared);
  }
  return new DeclaredQuery(query, declared, route);
}
