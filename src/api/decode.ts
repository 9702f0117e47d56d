/**
 * Decoding untrusted JSON into typed input with zod. Unknown keys are dropped, numbers arrive as JSON
 * numbers or numeric strings and are bounded, so no input can make the engine's work expensive.
 */
import { z } from 'zod';
import { compileFn } from 'zod/v4/core';
import { type Dec, type DecimalLimits, fromMinor, parseDecimal } from '../kernel/money.js';
import { err, ok, type Result } from '../kernel/result.js';
import { parseCalendarDate } from '../kernel/time.js';

export { z };

const MAX_INT = 1_000_000_000_000;

/** An integer, from a JSON number or an integer string, within bounds. */
export const zInt = (min = 0, max = MAX_INT) =>
  z.union([z.number(), z.string().max(32)]).transform((value, context) => {
    const number =
      typeof value === 'number' ? value : /^-?\d+$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
    if (!Number.isSafeInteger(number) || number < min || number > max) {
      context.addIssue({ code: 'custom', message: `must be a whole number from ${min} to ${max}` });
      return z.NEVER;
    }
    return number;
  });

/** A positive integer id. */
export const zId = () => zInt(1, Number.MAX_SAFE_INTEGER);

/** An id or a `handle:...` reference, as text. */
export const zIdOrHandle = () =>
  z.union([z.number(), z.string().max(300)]).transform((value, context) => {
    const text = String(value).trim();
    if (/^[1-9]\d{0,15}$/.test(text) || (text.startsWith('handle:') && text.length > 7)) return text;
    if (text.length > 0 && !/^\d/.test(text) && typeof value === 'string') return `handle:${text}`;
    context.addIssue({ code: 'custom', message: 'must be an id or a handle' });
    return z.NEVER;
  });

/** An exact decimal from a number or a numeric string, within limits. */
export const zDecimal = (limits: DecimalLimits = {}) =>
  z.union([z.number(), z.string()]).transform((value, context): Dec => {
    const parsed = parseDecimal(value, limits);
    if (!parsed.ok) {
      context.addIssue({ code: 'custom', message: decimalMessage(parsed.error) });
      return z.NEVER;
    }
    return parsed.value;
  });

function decimalMessage(error: string): string {
  switch (error) {
    case 'too_large':
      return 'is too large';
    case 'too_precise':
      return 'has too many decimal places';
    case 'negative':
      return 'must not be negative';
    default:
      return 'is not a number';
  }
}

/** A non-negative amount in minor units (`*_in_cents`), decoded to a decimal amount of `currency`. */
export const zCents = (currency: string) =>
  zInt(0, 100_000_000_000_000).transform((cents) => fromMinor(cents, currency));

/** A boolean from `true`/`false`, `"true"`/`"false"`, `1`/`0`, `"1"`/`"0"`. */
export const zBool = () =>
  z.union([z.boolean(), z.number(), z.string().max(8)]).transform((value, context) => {
    if (value === true || value === 1 || value === 'true' || value === '1') return true;
    if (value === false || value === 0 || value === 'false' || value === '0') return false;
    context.addIssue({ code: 'custom', message: 'must be true or false' });
    return z.NEVER;
  });

/** A string of bounded length. */
export const zText = (max = 255) => z.string().max(max, `is too long (maximum is ${max} characters)`);

/** A `YYYY-MM-DD` date. */
export const zDate = () =>
  z.string().transform((value, context) => {
    const parsed = parseCalendarDate(value);
    if (!parsed.ok) {
      context.addIssue({ code: 'custom', message: 'must be a date in the format YYYY-MM-DD' });
      return z.NEVER;
    }
    return parsed.value;
  });

/**
 * Remembers the schema a factory builds for each key (a currency, a component kind). zod compiles a
 * schema on its first use, so a schema built per request costs a millisecond or more, most of the request.
 * @example const body = schemaPerKey((currency) => z.object({ amount: zCents(currency) }));
 */
export function schemaPerKey<S>(build: (key: string) => S): (key: string) => S {
  const built = new Map<string, S>();
  return (key) => {
    const found = built.get(key);
    if (found !== undefined) return found;
    const schema = build(key);
    built.set(key, schema);
    return schema;
  };
}

/** Each schema's generated parser once it has one, else how many decodings it has done. */
const compiled = new WeakMap<z.ZodType, z.ZodType | number>();
/** Decodings before a schema gets its generated parser, whose generation costs tens of milliseconds. */
const COMPILE_AFTER = 50;

/**
 * The schema with zod's generated parser once it is used often: it takes about a third of the
 * interpreted parser's time and allocates less. On any issue it hands over to the interpreted parser,
 * so failures read exactly as before. A schema used a few times keeps the interpreted parser.
 */
function compiledOf<T>(schema: z.ZodType<T>): z.ZodType<T> {
  const found = compiled.get(schema) ?? 0;
  if (typeof found !== 'number') return found as z.ZodType<T>;
  if (found < COMPILE_AFTER) {
    compiled.set(schema, found + 1);
    return schema;
  }
  const built = withGeneratedParser(schema);
  compiled.set(schema, built);
  return built;
}

/**
 * A copy of the schema that parses through zod's generated parser, or the schema itself when zod
 * cannot generate one. Exported for its own tests (decoding reaches it only after many requests); not
 * public API.
 * @example withGeneratedParser(z.object({ a: zInt() })).safeParse({ a: '3' }).data // { a: 3 }
 */
export function withGeneratedParser<T>(schema: z.ZodType<T>): z.ZodType<T> {
  try {
    // The parser alone: `z.compile` also generates a validator (a second compilation) that decoding never calls.
    return z.withParser(schema, compileFn(schema));
  } catch {
    return schema;
  }
}

/** A decoding failure: messages by field (dotted path; `base` for the whole body). */
export type DecodeFailure = Readonly<Record<string, string[]>>;

/**
 * Decodes input with a schema, collecting every issue by field.
 * @example decode(z.object({ a: zInt() }), { a: '3' }) // ok({ a: 3 })
 */
export function decode<T>(schema: z.ZodType<T>, input: unknown): Result<T, DecodeFailure> {
  const parsed = compiledOf(schema).safeParse(input);
  if (parsed.success) return ok(parsed.data);
  const failure: Record<string, string[]> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path.filter((part) => typeof part !== 'symbol').join('.') || 'base';
    const missing = issue.code === 'invalid_type' && / received undefined$/.test(issue.message);
    const message = missing ? 'is required' : issue.message;
    const messages = failure[field] ?? [];
    messages.push(message);
    failure[field] = messages;
  }
  return err(failure);
}

/** Flattens a decoding failure into messages such as `customer.email: is required`. */
export const failureMessages = (failure: DecodeFailure): string[] =>
  Object.entries(failure).flatMap(([field, messages]) => messages.map((message) => `${field}: ${message}`));
