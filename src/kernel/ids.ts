/**
 * Deterministic identifiers. Every id comes from a counter in state (a table's next id), so the same
 * requests at the same instants give byte-identical results. Public uids (`inv_...`) encode their row's
 * id, so a uid is resolved without an index.
 */

const UID_WIDTH = 13;
const UID_BODY = /^[0-9a-z]{13}$/;
const ZEROS = '0'.repeat(UID_WIDTH);

/**
 * The uid of a row: a prefix and its id in base 36, padded.
 * @example uidOf('inv', 1) // 'inv_0000000000001'
 */
export function uidOf(prefix: string, id: number): string {
  const body = id.toString(36);
  const head = headsOf(prefix)[body.length] ?? `${prefix}_${ZEROS.slice(body.length)}`;
  // A joined text of this length is a tree of its parts (kernel/compact.ts); `toLowerCase` of text
  // already in lower case gives it back as one flat string, for less than joining an array costs.
  return (head + body).toLowerCase();
}

/**
 * Each prefix's heads (`inv_000…`) by the length of the body they pad: an invoice of a thousand lines
 * makes a thousand line uids, and the prefix and its zeros are the same for nearly all of them.
 */
const HEADS = new Map<string, readonly string[]>();
const MAX_PREFIXES = 64;

function headsOf(prefix: string): readonly string[] {
  let heads = HEADS.get(prefix);
  if (heads === undefined) {
    heads = Array.from({ length: UID_WIDTH + 1 }, (_, length) => `${prefix}_${ZEROS.slice(length)}`);
    // The prefixes are the few the engine names; a bound all the same.
    if (HEADS.size < MAX_PREFIXES) HEADS.set(prefix, heads);
  }
  return heads;
}

/**
 * The row id a uid encodes, or undefined when the text is not a uid of that prefix.
 * @example idOfUid('inv', 'inv_000000000000a') // 10
 */
export function idOfUid(prefix: string, uid: string): number | undefined {
  if (!uid.startsWith(`${prefix}_`)) return undefined;
  const body = uid.slice(prefix.length + 1);
  if (!UID_BODY.test(body)) return undefined;
  const id = Number.parseInt(body, 36);
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

/**
 * Parses a positive integer id from a path segment or a JSON value; anything else is undefined.
 * @example parseId('42') // 42
 */
export function parseId(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value > 0 ? value : undefined;
  if (typeof value !== 'string' || !/^[1-9]\d{0,14}$/.test(value)) return undefined;
  return Number(value);
}
