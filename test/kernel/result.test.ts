import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { all, err, ok, type Result } from '../../src/kernel/result.js';

describe('Result', () => {
  test('ok and err are plain data', () => {
    expect(ok(42)).toEqual({ ok: true, value: 42 });
    expect(err('nope')).toEqual({ ok: false, error: 'nope' });
    expect(JSON.parse(JSON.stringify(ok({ a: [1] })))).toEqual(ok({ a: [1] }));
  });

  test('all collects values or returns the first error, unchanged', () => {
    expect(all([ok(1), ok(2)])).toEqual(ok([1, 2]));
    expect(all([])).toEqual(ok([]));
    const first = err('first');
    const results: Result<number, string>[] = [ok(1), first, err('second')];
    expect(all(results)).toBe(first);
  });

  test.prop([
    fc.array(
      fc.oneof(
        fc.integer().map((n) => ok(n)),
        fc.string().map((e) => err(e)),
      ),
    ),
  ])('law: all is ok exactly when every result is ok', (results) => {
    const combined = all<number, string>(results);
    const firstError = results.find((r) => !r.ok);
    if (firstError === undefined) expect(combined).toEqual(ok(results.map((r) => (r.ok ? r.value : 0))));
    else expect(combined).toBe(firstError);
  });
});
