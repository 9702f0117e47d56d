/**
 * Query strings (CONTRACT section 3): empty pairs are ignored, `filter[x]=1` and `resume[require_resume]`
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

/**
 * Parses a raw query string and an already-split query object into one `QueryParams`, or returns
 * undefined when the text is not valid percent-encoding.
 * @example parseQuery('a=1&&filter[x]=2', undefined)?.get('filter.x') // '2'
 */
export function parseQuery(
  text: string,
  extra: Readonly<Record<string, string | readonly string[]>> | undefined,
): QueryParams | undefined {
  const values = new Map<string, string[]>();
  const add = (name: string, value: string) => {
    const key = normalizeName(name);
    if (key.length === 0) return;
    const existing = values.get(key);
    if (existing) existing.push(value);
    else values.set(key, [value]);
  };
  const pairs = text.split('&').filter((pair) => pair.length > 0);
  if (pairs.length > MAX_PAIRS) return undefined;
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    const name = safeDecode(at < 0 ? pair : pair.slice(0, at));
    const value = safeDecode(at < 0 ? '' : pair.slice(at + 1));
    if (name === undefined || value === undefined) return undefined;
    add(name, value);
  }
  if (extra) {
    for (const name of Object.keys(extra)) {
      const value = extra[name];
      if (typeof value === 'string') add(name, value);
      else if (Array.isArray(value)) for (const item of value) if (typeof item === 'string') add(name, item);
    }
  }
  return {
    get: (name) => values.get(name)?.at(-1),
    list: (name) =>
      (values.get(name) ?? [])
        .flatMap((value) => value.split(','))
        .map((value) => value.trim())
        .filter((value) => value.length > 0),
    has: (name) => values.has(name),
    names: () => [...values.keys()],
  };
}
