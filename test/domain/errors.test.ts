import { describe, expect, test } from 'vitest';
import { invalid, notFound } from '../../src/domain/errors.js';

describe('domain errors', () => {
  test('invalid is a 422 that names its field only when it has one', () => {
    expect(invalid('blank_name', 'Name: cannot be blank.', 'name')).toEqual({
      code: 'blank_name',
      status: 422,
      message: 'Name: cannot be blank.',
      field: 'name',
    });
    const withoutField = invalid('bad_request', 'Something is off.');
    expect(withoutField).toEqual({ code: 'bad_request', status: 422, message: 'Something is off.' });
    expect(Object.keys(withoutField)).not.toContain('field');
  });
  test('notFound is a 404 naming the resource', () => {
    expect(notFound('customer')).toEqual({ code: 'not_found', status: 404, message: 'customer not found' });
  });
});
