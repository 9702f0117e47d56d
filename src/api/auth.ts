/** HTTP Basic authentication against the site's API keys: `KEY:x` or `KEY:X`. */

function constantTimeEqual(a: string, b: string): boolean {
  const length = Math.max(a.length, b.length);
  let difference = a.length ^ b.length;
  for (let i = 0; i < length; i += 1) difference |= (a.charCodeAt(i) | 0) ^ (b.charCodeAt(i) | 0);
  return difference === 0;
}

function decodeBase64(text: string): string | undefined {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length > 4096) return undefined;
  try {
    return atob(text);
  } catch {
    return undefined;
  }
}

/** Headers found to carry a key, per list of keys: a client sends the same header on every request. */
const accepted = new WeakMap<readonly string[], AcceptedHeaders>();

interface AcceptedHeaders {
  /** The keys as they were when the headers were accepted: a list changed in place forgets them. */
  readonly keys: readonly string[];
  readonly headers: Set<string>;
}

const sameKeys = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((key, index) => key === b[index]);
/** Headers remembered per list of keys at most (a client may vary spacing or the password's case). */
const ACCEPTED_HEADERS = 64;

/**
 * Whether an Authorization header carries one of the keys, with the password `x` or `X`. Every key is
 * compared in constant time, so timing does not tell which key or how much of it matched. A header
 * accepted before is found by a set lookup (a hash, not a comparison that stops at the first differing
 * character), so that, too, tells nothing of how much of a refused header matched.
 * @example isAuthorized('Basic ' + btoa('secret:x'), ['secret']) // true
 */
export function isAuthorized(header: string | undefined, keys: readonly string[]): boolean {
  if (header === undefined) return false;
  let known = accepted.get(keys);
  if (known !== undefined && !sameKeys(known.keys, keys)) known = undefined;
  if (known?.headers.has(header)) return true;
  if (!checkCredentials(header, keys)) return false;
  if (known === undefined || known.headers.size >= ACCEPTED_HEADERS) {
    known = { keys: [...keys], headers: new Set() };
    accepted.set(keys, known);
  }
  known.headers.add(header);
  return true;
}

function checkCredentials(header: string, keys: readonly string[]): boolean {
  const match = /^Basic\s+(\S+)\s*$/i.exec(header);
  if (!match?.[1]) return false;
  const credentials = decodeBase64(match[1]);
  if (credentials === undefined) return false;
  const colon = credentials.lastIndexOf(':');
  if (colon < 0) return false;
  const key = credentials.slice(0, colon);
  const password = credentials.slice(colon + 1);
  let matched = false;
  for (const candidate of keys) matched = constantTimeEqual(key, candidate) || matched;
  return matched && (password === 'x' || password === 'X');
}
