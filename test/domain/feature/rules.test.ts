import { describe, expect, test } from 'vitest';
import {
  checkPeriodicity,
  checkTemplate,
  FEATURE_KINDS,
  FEATURE_VALUE_TYPES,
  isFeatureKey,
  normalizeFeatureValue,
  PERIODICITY_UNITS,
  valueTypeOf,
} from '../../../src/domain/feature/rules.js';
import type { FeatureTemplate } from '../../../src/domain/feature/types.js';

const template = (overrides: Partial<FeatureTemplate> = {}): FeatureTemplate => ({
  id: 1,
  key: 'api_calls',
  name: 'API calls',
  description: null,
  kind: 'usage_limit',
  unit: 'requests',
  valueType: 'numeric',
  defaultValue: null,
  defaultPeriodicityInterval: 1,
  defaultPeriodicityUnit: 'month',
  archivedAt: null,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
  ...overrides,
});

const errorOf = <E>(result: { ok: true } | { ok: false; error: E }): E | undefined =>
  result.ok ? undefined : result.error;

describe('feature vocabularies', () => {
  test('kinds, value types and periodicity units as the API spells them', () => {
    expect(FEATURE_KINDS).toEqual(['access_right', 'usage_limit', 'service_right']);
    expect(FEATURE_VALUE_TYPES).toEqual(['text', 'boolean', 'numeric']);
    expect(PERIODICITY_UNITS).toEqual(['hour', 'day', 'week', 'month', 'year']);
  });
});

describe('isFeatureKey', () => {
  test('lowercase letters, digits and underscores, starting with a letter, at most 100 long', () => {
    expect(isFeatureKey('api_calls')).toBe(true);
    expect(isFeatureKey('a')).toBe(true);
    expect(isFeatureKey('seats2')).toBe(true);
    expect(isFeatureKey(`a${'b'.repeat(99)}`)).toBe(true);
    expect(isFeatureKey(`a${'b'.repeat(100)}`)).toBe(false);
    expect(isFeatureKey('')).toBe(false);
    expect(isFeatureKey('2fa')).toBe(false);
    expect(isFeatureKey('_x')).toBe(false);
    expect(isFeatureKey('Api')).toBe(false);
    expect(isFeatureKey('api-calls')).toBe(false);
    expect(isFeatureKey('x api')).toBe(false);
    expect(isFeatureKey('api calls')).toBe(false);
  });
});

describe('valueTypeOf', () => {
  test('access rights are boolean and usage limits numeric whatever was asked', () => {
    expect(valueTypeOf('access_right', 'text')).toBe('boolean');
    expect(valueTypeOf('access_right', undefined)).toBe('boolean');
    expect(valueTypeOf('usage_limit', 'text')).toBe('numeric');
    expect(valueTypeOf('usage_limit', undefined)).toBe('numeric');
  });
  test('a service right takes the type asked for', () => {
    expect(valueTypeOf('service_right', 'text')).toBe('text');
    expect(valueTypeOf('service_right', 'numeric')).toBe('numeric');
    expect(valueTypeOf('service_right', undefined)).toBeUndefined();
  });
});

describe('normalizeFeatureValue', () => {
  test('booleans accept true/false as values or text', () => {
    expect(normalizeFeatureValue('boolean', true)).toEqual({ ok: true, value: 'true' });
    expect(normalizeFeatureValue('boolean', 'true')).toEqual({ ok: true, value: 'true' });
    expect(normalizeFeatureValue('boolean', false)).toEqual({ ok: true, value: 'false' });
    expect(normalizeFeatureValue('boolean', 'false')).toEqual({ ok: true, value: 'false' });
    for (const raw of ['yes', 1, 0, 'TRUE', '']) {
      expect(normalizeFeatureValue('boolean', raw)).toEqual({ ok: false, error: 'must be true or false' });
    }
  });
  test('numerics are canonical non-negative decimals', () => {
    expect(normalizeFeatureValue('numeric', '0100')).toEqual({ ok: true, value: '100' });
    expect(normalizeFeatureValue('numeric', 2.5)).toEqual({ ok: true, value: '2.5' });
    expect(normalizeFeatureValue('numeric', '0')).toEqual({ ok: true, value: '0' });
    expect(normalizeFeatureValue('numeric', true)).toEqual({ ok: false, error: 'must be a number' });
    expect(normalizeFeatureValue('numeric', '-1')).toEqual({
      ok: false,
      error: 'must be a number of at least 0',
    });
    expect(normalizeFeatureValue('numeric', 'lots')).toEqual({
      ok: false,
      error: 'must be a number of at least 0',
    });
  });
  test('text is kept as its text form up to 255 characters', () => {
    expect(normalizeFeatureValue('text', 'gold')).toEqual({ ok: true, value: 'gold' });
    expect(normalizeFeatureValue('text', 12)).toEqual({ ok: true, value: '12' });
    expect(normalizeFeatureValue('text', false)).toEqual({ ok: true, value: 'false' });
    expect(normalizeFeatureValue('text', 'x'.repeat(255))).toEqual({ ok: true, value: 'x'.repeat(255) });
    expect(normalizeFeatureValue('text', 'x'.repeat(256))).toEqual({
      ok: false,
      error: 'is too long (maximum is 255 characters)',
    });
  });
});

describe('checkPeriodicity', () => {
  test('kinds other than usage limits take no periodicity', () => {
    expect(checkPeriodicity('access_right', null, null, 'periodicity', true)).toBeUndefined();
    expect(checkPeriodicity('access_right', 1, 'month', 'periodicity', false)).toEqual({
      code: 'periodicity_not_allowed',
      status: 422,
      message: 'Periodicity: is only allowed for usage_limit features.',
      field: 'periodicity',
    });
    expect(checkPeriodicity('service_right', null, 'day', 'default_periodicity', false)).toEqual({
      code: 'periodicity_not_allowed',
      status: 422,
      message: 'Default periodicity: is only allowed for usage_limit features.',
      field: 'default_periodicity',
    });
    expect(checkPeriodicity('service_right', 3, null, 'periodicity', false)?.code).toBe(
      'periodicity_not_allowed',
    );
  });
  test('a usage limit gives interval and unit together', () => {
    expect(checkPeriodicity('usage_limit', 1, 'month', 'periodicity', true)).toBeUndefined();
    expect(checkPeriodicity('usage_limit', 1, null, 'periodicity', false)).toEqual({
      code: 'periodicity_incomplete',
      status: 422,
      message: 'Periodicity: interval and unit go together.',
      field: 'periodicity',
    });
    expect(checkPeriodicity('usage_limit', null, 'week', 'periodicity', false)?.code).toBe(
      'periodicity_incomplete',
    );
  });
  test('a usage limit may leave its periodicity out unless it is required', () => {
    expect(checkPeriodicity('usage_limit', null, null, 'periodicity', false)).toBeUndefined();
    expect(checkPeriodicity('usage_limit', null, null, 'periodicity', true)).toEqual({
      code: 'periodicity_required',
      status: 422,
      message: 'Periodicity: is required for usage_limit features.',
      field: 'periodicity',
    });
  });
});

describe('checkTemplate', () => {
  test('a valid template comes back with its default value normalized', () => {
    expect(checkTemplate(template({ defaultValue: '0050' }))).toEqual({
      ok: true,
      value: template({ defaultValue: '50' }),
    });
    const withoutDefault = template();
    expect(checkTemplate(withoutDefault)).toEqual({ ok: true, value: withoutDefault });
  });
  test('refuses a key that is not a feature key', () => {
    expect(errorOf(checkTemplate(template({ key: 'API' })))).toEqual({
      code: 'invalid_key',
      status: 422,
      message:
        'Key: must start with a lowercase letter and contain only lowercase letters, numbers and underscores.',
      field: 'key',
    });
  });
  test('refuses a blank name', () => {
    expect(errorOf(checkTemplate(template({ name: '  ' })))).toEqual({
      code: 'blank_name',
      status: 422,
      message: 'Name: cannot be blank.',
      field: 'name',
    });
  });
  test('a usage limit needs a non-blank unit; other kinds do not', () => {
    const unitRequired = {
      code: 'unit_required',
      status: 422,
      message: 'Unit: is required for usage_limit features.',
      field: 'unit',
    };
    expect(errorOf(checkTemplate(template({ unit: null })))).toEqual(unitRequired);
    expect(errorOf(checkTemplate(template({ unit: ' ' })))).toEqual(unitRequired);
    const accessRight = template({
      kind: 'access_right',
      valueType: 'boolean',
      unit: null,
      defaultPeriodicityInterval: null,
      defaultPeriodicityUnit: null,
    });
    expect(checkTemplate(accessRight)).toEqual({ ok: true, value: accessRight });
  });
  test('checks the default periodicity under its own field', () => {
    expect(errorOf(checkTemplate(template({ defaultPeriodicityUnit: null })))).toMatchObject({
      code: 'periodicity_incomplete',
      field: 'default_periodicity',
    });
  });
  test('refuses a default value of the wrong shape', () => {
    expect(errorOf(checkTemplate(template({ defaultValue: '-3' })))).toEqual({
      code: 'invalid_default_value',
      status: 422,
      message: 'Default value: must be a number of at least 0.',
      field: 'default_value',
    });
  });
});
