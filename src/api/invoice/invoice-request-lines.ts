/**
 * A fast path for the `line_items` of an ad hoc invoice request: an invoice may carry a million lines,
 * and running the zod schema over each line costs more than everything else the request does. Lines
 * whose known fields already have the types zod would hand over (strings within their bounds, finite
 * numbers, booleans) are taken as they are; zod would accept them unchanged and drop only the unknown
 * keys, which nothing reads. Anything else (a flag sent as `"true"`, an over-long title, a non-object)
 * declines the fast path, and the whole body goes through zod, so accepted input and error messages are
 * exactly zod's.
 */

/** A request line as zod decodes it (unknown keys aside). */
export interface RequestLine {
  readonly uid?: string | undefined;
  readonly _destroy?: boolean | undefined;
  readonly title?: string | undefined;
  readonly description?: string | undefined;
  readonly quantity?: string | number | undefined;
  readonly unit_price?: string | number | undefined;
  readonly product_id?: string | number | undefined;
  readonly product_price_point_id?: string | number | undefined;
  readonly component_id?: string | number | undefined;
  readonly price_point_id?: string | number | undefined;
  readonly period_range_start?: string | undefined;
  readonly period_range_end?: string | undefined;
  readonly taxable?: boolean | undefined;
  readonly tax_code?: string | undefined;
}

/** Bounds of the line schema, shared with the zod schema so both accept the same lengths. */
export const LINE_LIMITS = {
  text: 255,
  description: 10_000,
  scalar: 64,
  ref: 300,
  date: 10,
} as const;

type Fields = { readonly [key: string]: unknown };

/** A non-array object zod reads field by field the way a spread copy does (own plain data). */
export function isPlainObject(value: unknown): value is Fields {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

const text = (value: unknown, max: number): boolean =>
  value === undefined || (typeof value === 'string' && value.length <= max);

const scalar = (value: unknown, max: number): boolean =>
  value === undefined ||
  (typeof value === 'string' ? value.length <= max : typeof value === 'number' && Number.isFinite(value));

const flag = (value: unknown): boolean => value === undefined || typeof value === 'boolean';

/** Whether zod would decode the line to its known fields unchanged. */
export function isRequestLine(value: unknown): value is RequestLine {
  if (!isPlainObject(value)) return false;
  const { text: shortText, description, scalar: scalarLength, ref, date } = LINE_LIMITS;
  return (
    text(value['title'], shortText) &&
    scalar(value['quantity'], scalarLength) &&
    scalar(value['unit_price'], scalarLength) &&
    flag(value['taxable']) &&
    text(value['uid'], shortText) &&
    flag(value['_destroy']) &&
    text(value['description'], description) &&
    scalar(value['product_id'], ref) &&
    scalar(value['product_price_point_id'], ref) &&
    scalar(value['component_id'], ref) &&
    scalar(value['price_point_id'], ref) &&
    text(value['period_range_start'], date) &&
    text(value['period_range_end'], date) &&
    text(value['tax_code'], shortText)
  );
}

/**
 * The lines of a request body when every one takes the fast path, with the body zod still has to decode
 * (the same body without its lines); undefined when zod must decode the whole body.
 */
export function fastRequestLines(
  body: unknown,
  maxLines: number,
): { readonly lines: readonly RequestLine[]; readonly rest: unknown } | undefined {
  if (!isPlainObject(body)) return undefined;
  const invoice = body['invoice'];
  if (!isPlainObject(invoice)) return undefined;
  const lines: unknown = invoice['line_items'];
  if (!Array.isArray(lines) || lines.length > maxLines || !everyRequestLine(lines)) return undefined;
  return { lines, rest: { invoice: { ...invoice, line_items: undefined } } };
}

/** Every element a request line; a hole (sparse array) is not, as zod reads it as undefined. */
function everyRequestLine(values: readonly unknown[]): values is readonly RequestLine[] {
  for (let index = 0; index < values.length; index += 1) if (!isRequestLine(values[index])) return false;
  return true;
}
