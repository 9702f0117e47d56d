/**
 * Decoding the ad hoc invoice request into typed input, with every problem named by its field
 * (`line_items[0].quantity`) for the `{errors: {field: [...]}}` body of create and update.
 */
import { type Dec, parseDecimal } from '../../kernel/money.js';
import { err, ok, type Result } from '../../kernel/result.js';
import { parseCalendarDate } from '../../kernel/time.js';
import { z, zBool, zText } from '../decode.js';
import { fastRequestLines, LINE_LIMITS, type RequestLine } from './invoice-request-lines.js';

export type FieldErrors = Record<string, string[]>;

export interface LineItemInput {
  readonly uid?: string;
  readonly destroy: boolean;
  readonly title?: string;
  readonly description?: string;
  readonly quantity?: Dec;
  readonly unitPrice?: Dec;
  readonly productRef?: string;
  readonly productPricePointRef?: string;
  readonly componentRef?: string;
  readonly pricePointRef?: string;
  readonly periodRangeStart?: string;
  readonly periodRangeEnd?: string;
  readonly taxable?: boolean;
  readonly taxCode?: string;
}

export interface CouponInput {
  readonly code?: string;
  readonly subcode?: string;
  readonly percentage?: Dec;
  readonly amount?: Dec;
  readonly description?: string;
  readonly productFamilyRef?: string;
  readonly compoundingStrategy?: 'compound' | 'full-price';
}

export interface AddressInput {
  readonly firstName: string;
  readonly lastName: string | null;
  readonly phone: string | null;
  readonly street: string | null;
  readonly line2: string | null;
  readonly city: string | null;
  readonly state: string | null;
  readonly zip: string | null;
  readonly country: string | null;
}

export interface InvoiceRequest {
  readonly lineItems?: readonly LineItemInput[];
  readonly coupons?: readonly CouponInput[];
  readonly issueDate?: string;
  readonly netTerms?: number;
  readonly memo?: string;
  readonly paymentInstructions?: string;
  readonly sellerAddress?: AddressInput;
  readonly billingAddress?: AddressInput;
  readonly shippingAddress?: AddressInput;
  readonly status?: 'open' | 'draft';
}

const MAX_LINES = 1_000_000;
const scalar = z.union([z.string().max(LINE_LIMITS.scalar), z.number()]);
const ref = z.union([z.string().max(LINE_LIMITS.ref), z.number()]);
const lineShape = z.object({
  uid: zText(LINE_LIMITS.text).optional(),
  _destroy: zBool().optional(),
  title: zText(LINE_LIMITS.text).optional(),
  description: zText(LINE_LIMITS.description).optional(),
  quantity: scalar.optional(),
  unit_price: scalar.optional(),
  product_id: ref.optional(),
  product_price_point_id: ref.optional(),
  component_id: ref.optional(),
  price_point_id: ref.optional(),
  period_range_start: zText(LINE_LIMITS.date).optional(),
  period_range_end: zText(LINE_LIMITS.date).optional(),
  taxable: zBool().optional(),
  tax_code: zText(LINE_LIMITS.text).optional(),
});
const couponShape = z.object({
  code: zText().optional(),
  subcode: zText().optional(),
  percentage: scalar.optional(),
  amount: scalar.optional(),
  description: zText(10_000).optional(),
  product_family_id: ref.optional(),
  compounding_strategy: z.enum(['compound', 'full-price']).optional(),
});
const addressShape = z.object({
  first_name: zText().optional(),
  last_name: zText().nullish(),
  phone: zText().nullish(),
  address: zText().nullish(),
  address_2: zText().nullish(),
  city: zText().nullish(),
  state: zText().nullish(),
  zip: zText().nullish(),
  country: zText().nullish(),
});
/** The body an ad hoc invoice request decodes to (the fast path over its lines gives the same answer). */
export const invoiceRequestBody = z.object({
  invoice: z.object({
    line_items: z.array(lineShape).max(MAX_LINES).optional(),
    coupons: z.array(couponShape).max(100).optional(),
    issue_date: zText(10).optional(),
    net_terms: z.union([z.number(), z.string().max(8)]).optional(),
    memo: zText(10_000).optional(),
    payment_instructions: zText(10_000).optional(),
    seller_address: addressShape.optional(),
    billing_address: addressShape.optional(),
    shipping_address: addressShape.optional(),
    status: z.enum(['open', 'draft']).optional(),
  }),
});

/** Adds a message to a field. */
export function addError(errors: FieldErrors, field: string, message: string): void {
  const list = errors[field] ?? [];
  list.push(message);
  errors[field] = list;
}

function refText(value: string | number): string;
function refText(value: string | number | undefined): string | undefined;
function refText(value: string | number | undefined): string | undefined {
  if (value === undefined) return undefined;
  const text = String(value).trim();
  return /^\d+$/.test(text) || text.startsWith('handle:') ? text : `handle:${text}`;
}

const DECIMAL_LIMITS = {
  2: { maxScale: 2, allowNegative: false, maxIntegerDigits: 12 },
  4: { maxScale: 4, allowNegative: false, maxIntegerDigits: 12 },
} as const;

/** A non-negative amount; the field is named (lazily: most lines are fine) when the value is refused. */
function decimalField(
  errors: FieldErrors,
  field: () => string,
  value: string | number | undefined,
  maxScale: 2 | 4,
): Dec | undefined {
  if (value === undefined) return undefined;
  const parsed = parseDecimal(value, DECIMAL_LIMITS[maxScale]);
  if (!parsed.ok) {
    addError(
      errors,
      field(),
      parsed.error === 'negative'
        ? 'must be greater than or equal to 0'
        : parsed.error === 'too_precise'
          ? `must have at most ${maxScale} decimal places`
          : 'must be a number',
    );
    return undefined;
  }
  return parsed.value;
}

function address(
  errors: FieldErrors,
  field: string,
  value: z.infer<typeof addressShape> | undefined,
): AddressInput | undefined {
  if (value === undefined) return undefined;
  const firstName = value.first_name?.trim() ?? '';
  if (firstName === '') addError(errors, `${field}.first_name`, "can't be blank");
  return {
    firstName,
    lastName: value.last_name ?? null,
    phone: value.phone ?? null,
    street: value.address ?? null,
    line2: value.address_2 ?? null,
    city: value.city ?? null,
    state: value.state ?? null,
    zip: value.zip ?? null,
    country: value.country ?? null,
  };
}

function lineItem(errors: FieldErrors, index: number, line: RequestLine): LineItemInput {
  let start: string | undefined;
  let end: string | undefined;
  if (line.period_range_start !== undefined) {
    if (parseCalendarDate(line.period_range_start).ok) start = line.period_range_start;
    else addError(errors, lineField(index, 'period_range_start'), 'must be a date in the format YYYY-MM-DD');
  }
  if (line.period_range_end !== undefined) {
    if (parseCalendarDate(line.period_range_end).ok) end = line.period_range_end;
    else addError(errors, lineField(index, 'period_range_end'), 'must be a date in the format YYYY-MM-DD');
  }
  if (start !== undefined && end !== undefined && end < start) {
    addError(
      errors,
      lineField(index, 'period_range_end'),
      'must be greater than or equal to period_range_start',
    );
  }
  // Assigned field by field rather than spread: a request may carry a million lines.
  const input: { -readonly [K in keyof LineItemInput]: LineItemInput[K] } = {
    destroy: line._destroy ?? false,
  };
  if (line.uid !== undefined) input.uid = line.uid;
  if (line.title !== undefined) input.title = line.title;
  if (line.description !== undefined) input.description = line.description;
  const quantity =
    line.quantity === undefined
      ? undefined
      : decimalField(errors, () => lineField(index, 'quantity'), line.quantity, 4);
  if (quantity !== undefined) input.quantity = quantity;
  const unitPrice =
    line.unit_price === undefined
      ? undefined
      : decimalField(errors, () => lineField(index, 'unit_price'), line.unit_price, 4);
  if (unitPrice !== undefined) input.unitPrice = unitPrice;
  if (line.product_id !== undefined) input.productRef = refText(line.product_id);
  if (line.product_price_point_id !== undefined)
    input.productPricePointRef = refText(line.product_price_point_id);
  if (line.component_id !== undefined) input.componentRef = refText(line.component_id);
  if (line.price_point_id !== undefined) input.pricePointRef = refText(line.price_point_id);
  if (start !== undefined) input.periodRangeStart = start;
  if (end !== undefined) input.periodRangeEnd = end;
  if (line.taxable !== undefined) input.taxable = line.taxable;
  if (line.tax_code !== undefined) input.taxCode = line.tax_code;
  return input;
}

const lineField = (index: number, name: string): string => `line_items[${index}].${name}`;

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

function coupon(errors: FieldErrors, index: number, input: z.infer<typeof couponShape>): CouponInput {
  const field = (name: string) => `coupons[${index}].${name}`;
  if (input.code !== undefined && input.subcode !== undefined)
    addError(errors, field('code'), 'cannot be sent together with subcode');
  if (input.percentage !== undefined && input.amount !== undefined)
    addError(errors, field('percentage'), 'cannot be sent together with amount');
  const percentage = decimalField(errors, () => field('percentage'), input.percentage, 4);
  if (percentage !== undefined && Number(percentage) > 100)
    addError(errors, field('percentage'), 'must be less than or equal to 100');
  return {
    ...optional('code', input.code?.trim().toUpperCase()),
    ...optional('subcode', input.subcode?.trim().toUpperCase()),
    ...optional('percentage', percentage),
    ...optional(
      'amount',
      decimalField(errors, () => field('amount'), input.amount, 2),
    ),
    ...optional('description', input.description),
    ...optional('productFamilyRef', refText(input.product_family_id)),
    ...optional('compoundingStrategy', input.compounding_strategy),
  };
}

/**
 * Decodes a create or update body; every problem is reported under its field. Lines zod would take
 * unchanged skip the schema (invoice-request-lines.ts): the answer is always the reference's.
 */
export function decodeInvoiceRequest(body: unknown): Result<InvoiceRequest, FieldErrors> {
  const fast = fastRequestLines(body ?? {}, MAX_LINES);
  return fast === undefined ? decodeWithZod(body ?? {}) : decodeWithZod(fast.rest, fast.lines);
}

/** The reference decoding: zod over every field of every line. */
export function decodeInvoiceRequestReference(body: unknown): Result<InvoiceRequest, FieldErrors> {
  return decodeWithZod(body ?? {});
}

function decodeWithZod(
  body: unknown,
  checkedLines?: readonly RequestLine[],
): Result<InvoiceRequest, FieldErrors> {
  const errors: FieldErrors = {};
  const parsed = invoiceRequestBody.safeParse(body);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const path =
        issue.path
          .map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`))
          .join('')
          .replace(/^\.invoice\.?/, '') || 'invoice';
      addError(
        errors,
        path.replace(/^\./, ''),
        / received undefined$/.test(issue.message) ? "can't be blank" : issue.message,
      );
    }
    return err(errors);
  }
  const invoice = parsed.data.invoice;
  let netTerms: number | undefined;
  if (invoice.net_terms !== undefined) {
    netTerms = Number(invoice.net_terms);
    if (!Number.isInteger(netTerms) || netTerms < 0 || netTerms > 3650)
      addError(errors, 'net_terms', 'must be a whole number from 0 to 3650');
  }
  if (invoice.issue_date !== undefined && !parseCalendarDate(invoice.issue_date).ok)
    addError(errors, 'issue_date', 'must be a date in the format YYYY-MM-DD');
  const lines = checkedLines ?? invoice.line_items;
  const request: InvoiceRequest = {
    ...optional(
      'lineItems',
      lines?.map((line, index) => lineItem(errors, index, line)),
    ),
    ...optional(
      'coupons',
      invoice.coupons?.map((input, index) => coupon(errors, index, input)),
    ),
    ...optional('issueDate', invoice.issue_date),
    ...optional('netTerms', netTerms),
    ...optional('memo', invoice.memo),
    ...optional('paymentInstructions', invoice.payment_instructions),
    ...optional('sellerAddress', address(errors, 'seller_address', invoice.seller_address)),
    ...optional('billingAddress', address(errors, 'billing_address', invoice.billing_address)),
    ...optional('shippingAddress', address(errors, 'shipping_address', invoice.shipping_address)),
    ...optional('status', invoice.status),
  };
  return Object.keys(errors).length > 0 ? err(errors) : ok(request);
}
