/**
 * Pure feature rules: which value type a kind implies, what a value of each type looks like,
 * and when a periodicity is allowed. Refusals are 422 domain errors naming the field.
 */

import { parseDecimal } from '../../kernel/money.js';
import { err, ok, type Result } from '../../kernel/result.js';
import { type DomainError, invalid } from '../errors.js';
import type { FeatureKind, FeatureTemplate, FeatureValueType, PeriodicityUnit } from './types.js';

/** The feature kinds, as the API spells them. @example FEATURE_KINDS.includes('usage_limit') // true */
export const FEATURE_KINDS = [
  'access_right',
  'usage_limit',
  'service_right',
] as const satisfies readonly FeatureKind[];
/** The value types of a feature. @example FEATURE_VALUE_TYPES[0] // 'text' */
export const FEATURE_VALUE_TYPES = [
  'text',
  'boolean',
  'numeric',
] as const satisfies readonly FeatureValueType[];
/** The units of a usage limit's period. @example PERIODICITY_UNITS.at(-1) // 'year' */
export const PERIODICITY_UNITS = [
  'hour',
  'day',
  'week',
  'month',
  'year',
] as const satisfies readonly PeriodicityUnit[];

/**
 * Whether a text is a template key: lowercase letters, digits and underscores, starting with a letter.
 * @example isFeatureKey('api_calls') // true
 */
export const isFeatureKey = (key: string): boolean => /^[a-z][a-z0-9_]{0,99}$/.test(key);

/**
 * The value type of a kind: access rights are boolean, usage limits numeric; a service right takes the
 * type asked for (undefined when none was).
 * @example valueTypeOf('usage_limit', 'text') // 'numeric'
 */
export function valueTypeOf(
  kind: FeatureKind,
  requested: FeatureValueType | undefined,
): FeatureValueType | undefined {
  if (kind === 'access_right') return 'boolean';
  if (kind === 'usage_limit') return 'numeric';
  return requested;
}

/**
 * A feature value in its stored form: `"true"`/`"false"`, a canonical non-negative decimal, or text.
 * @example normalizeFeatureValue('numeric', '0100') // ok('100')
 */
export function normalizeFeatureValue(
  valueType: FeatureValueType,
  raw: string | number | boolean,
): Result<string, string> {
  switch (valueType) {
    case 'boolean':
      if (raw === true || raw === 'true') return ok('true');
      if (raw === false || raw === 'false') return ok('false');
      return err('must be true or false');
    case 'numeric': {
      if (typeof raw === 'boolean') return err('must be a number');
      const parsed = parseDecimal(raw, { allowNegative: false });
      return parsed.ok ? ok(parsed.value) : err('must be a number of at least 0');
    }
    case 'text': {
      const text = String(raw);
      return text.length > 255 ? err('is too long (maximum is 255 characters)') : ok(text);
    }
  }
}

/**
 * Checks a periodicity: only usage limits have one, given as both interval and unit; a usage limit must
 * have one when `required`.
 * @example checkPeriodicity('access_right', 1, 'month', 'periodicity', false) // refused
 */
export function checkPeriodicity(
  kind: FeatureKind,
  interval: number | null,
  unit: PeriodicityUnit | null,
  field: string,
  required: boolean,
): DomainError | undefined {
  if (kind !== 'usage_limit') {
    return interval === null && unit === null
      ? undefined
      : invalid(
          'periodicity_not_allowed',
          `${label(field)}: is only allowed for usage_limit features.`,
          field,
        );
  }
  if ((interval === null) !== (unit === null))
    return invalid('periodicity_incomplete', `${label(field)}: interval and unit go together.`, field);
  if (required && interval === null)
    return invalid('periodicity_required', `${label(field)}: is required for usage_limit features.`, field);
  return undefined;
}

const label = (field: string) => {
  const text = field.replace(/_/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
};

/**
 * Checks a whole template (after a create or a merged update) and returns it with its default value
 * normalized.
 * @example checkTemplate({ ...template, kind: 'usage_limit', unit: null }) // err: Unit is required
 */
export function checkTemplate(template: FeatureTemplate): Result<FeatureTemplate, DomainError> {
  if (!isFeatureKey(template.key))
    return err(
      invalid(
        'invalid_key',
        'Key: must start with a lowercase letter and contain only lowercase letters, numbers and underscores.',
        'key',
      ),
    );
  if (template.name.trim().length === 0) return err(invalid('blank_name', 'Name: cannot be blank.', 'name'));
  if (template.kind === 'usage_limit' && (template.unit === null || template.unit.trim() === ''))
    return err(invalid('unit_required', 'Unit: is required for usage_limit features.', 'unit'));
  const periodicity = checkPeriodicity(
    template.kind,
    template.defaultPeriodicityInterval,
    template.defaultPeriodicityUnit,
    'default_periodicity',
    false,
  );
  if (periodicity) return err(periodicity);
  if (template.defaultValue === null) return ok(template);
  const value = normalizeFeatureValue(template.valueType, template.defaultValue);
  if (!value.ok)
    return err(invalid('invalid_default_value', `Default value: ${value.error}.`, 'default_value'));
  return ok({ ...template, defaultValue: value.value });
}
