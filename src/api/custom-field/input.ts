/** The request bodies of the custom field operations, decoded into engine input. */
import {
  INPUT_TYPES,
  type IncludeOption,
  MAX_NAME_LENGTH,
  MAX_VALUE_BYTES,
  type MetafieldScope,
} from '../../domain/custom-field/types.js';
import { type DomainError, invalid } from '../../domain/errors.js';
import type { MetafieldInput } from '../../engine/custom-field/fields.js';
import { err, ok, type Result } from '../../kernel/result.js';
import { decode, failureMessages, z, zText } from '../decode.js';

/** The most metafields or values one request may name. */
export const MAX_ITEMS = 100;

/** A field name: not blank, trimmed. */
const zName = () =>
  zText(MAX_NAME_LENGTH)
    .transform((name) => name.trim())
    .refine((name) => name.length > 0, 'cannot be blank');

const zInclude = () =>
  z
    .union([z.enum(['0', '1']), z.literal(0), z.literal(1), z.boolean()])
    .transform((value): IncludeOption => (value === '1' || value === 1 || value === true ? '1' : '0'));

const scopeSchema = z.object({
  csv: zInclude().optional(),
  invoices: zInclude().optional(),
  statements: zInclude().optional(),
  portal: zInclude().optional(),
  public_show: zInclude().optional(),
  public_edit: zInclude().optional(),
  hosted: z
    .array(z.union([zText(64), z.number().int().nonnegative()]).transform(String))
    .max(MAX_ITEMS)
    .optional(),
});

const definition = {
  scope: scopeSchema.optional(),
  input_type: z.enum(INPUT_TYPES).optional(),
  enum: z.array(zText(MAX_NAME_LENGTH)).max(MAX_ITEMS).optional(),
};

const manyOf = <T extends z.ZodType>(item: T) => z.array(item).min(1).max(MAX_ITEMS);
const oneOrMany = <T extends z.ZodType>(item: T) => z.union([item, manyOf(item)]);

const newField = z.object({ name: zName(), ...definition });
const changedField = z.object({ current_name: zName().optional(), name: zName().optional(), ...definition });
const newValue = z.object({ name: zName(), value: zValue() });

/** `POST /{resource_type}/metafields.json`: one field or a list. */
export const createMetafieldsBody = z.object({ metafields: oneOrMany(newField) });

/** The same, decoded as a list (a single field wrapped first), so that errors name the item at fault. */
export const createMetafieldsList = z.object({ metafields: manyOf(newField) });

/** `PUT /{resource_type}/metafields.json`: `current_name` names the field to rename, else `name` does. */
export const updateMetafieldsBody = z.object({ metafields: oneOrMany(changedField) });

/** The same, decoded as a list. */
export const updateMetafieldsList = z.object({ metafields: manyOf(changedField) });

/** A value: text (numbers and booleans written as text), at most the official 2 kB. */
function zValue() {
  return z
    .union([z.string().max(MAX_VALUE_BYTES), z.number(), z.boolean()], {
      error: (issue) => (issue.input === undefined ? 'is required' : 'must be text'),
    })
    .transform((value) => (typeof value === 'string' ? value : String(value)));
}

/** `POST /{resource_type}/{resource_id}/metadata.json`: one value or a list. */
export const createMetadataBody = z.object({ metadata: oneOrMany(newValue) });

/** The same, decoded as a list. */
export const createMetadataList = z.object({ metadata: manyOf(newValue) });

/** `PUT /{resource_type}/{resource_id}/metadata.json`. */
export const updateMetadataBody = z.object({
  metadata: z.object({ current_name: zName().optional(), name: zName(), value: zValue().optional() }),
});

/**
 * A body decoded, or the 422 naming what is wrong with it. With `listKey`, a single object under that
 * key is taken as a list of one (the official bodies accept both).
 */
export function decodeInput<T>(
  schema: z.ZodType<T>,
  body: unknown,
  listKey?: string,
): Result<T, DomainError> {
  const decoded = decode(schema, listKey === undefined ? (body ?? {}) : asList(body, listKey));
  return decoded.ok ? ok(decoded.value) : err(invalid('invalid', failureMessages(decoded.error).join('; ')));
}

/** The body with the object under `key` wrapped in a list (bodies that are not objects left as they are). */
function asList(body: unknown, key: string): unknown {
  if (body === null || body === undefined) return {};
  if (typeof body !== 'object' || Array.isArray(body) || !Object.hasOwn(body, key)) return body;
  const items: unknown = Reflect.get(body, key);
  if (items === null || typeof items !== 'object' || Array.isArray(items)) return body;
  return { ...body, [key]: [items] };
}

type ScopeInput = z.output<typeof scopeSchema>;

/** The scope parts a request gave, without the absent ones. */
function scopeParts(scope: ScopeInput): Partial<MetafieldScope> {
  const parts: { -readonly [K in keyof MetafieldScope]?: MetafieldScope[K] } = {};
  if (scope.csv !== undefined) parts.csv = scope.csv;
  if (scope.invoices !== undefined) parts.invoices = scope.invoices;
  if (scope.statements !== undefined) parts.statements = scope.statements;
  if (scope.portal !== undefined) parts.portal = scope.portal;
  if (scope.public_show !== undefined) parts.publicShow = scope.public_show;
  if (scope.public_edit !== undefined) parts.publicEdit = scope.public_edit;
  if (scope.hosted !== undefined) parts.hosted = scope.hosted;
  return parts;
}

/** A decoded metafield definition as the engine takes it. */
export function metafieldInput(item: {
  readonly name?: string | undefined;
  readonly scope?: ScopeInput | undefined;
  readonly input_type?: MetafieldInput['inputType'];
  readonly enum?: readonly string[] | undefined;
}): MetafieldInput {
  return {
    name: item.name,
    inputType: item.input_type,
    enumValues: item.enum,
    scope: item.scope === undefined ? undefined : scopeParts(item.scope),
  };
}
