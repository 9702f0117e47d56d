/**
 * Law: after any sequence of custom field operations on two customers (values set, changed, moved and
 * removed; fields renamed and deleted), each customer's listing equals a model of name to value, the
 * listing across the type with `with_deleted=true` pages into the same rows as one big page, every
 * metafield's `data_count` is the number of values held in it, and `checkState` holds. A refused step
 * changes nothing.
 */
import { test } from '@fast-check/vitest';
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { checkState } from '../../../src/testing/index.js';
import { arr, get, num, site, str } from '../../helpers/api.js';

const NAMES = ['a', 'b', 'c'] as const;
const VALUES = ['x', 'y'] as const;

type Step =
  | { readonly kind: 'set'; readonly who: 0 | 1; readonly name: string; readonly value: string }
  | { readonly kind: 'remove'; readonly who: 0 | 1; readonly names: readonly string[] }
  | { readonly kind: 'move'; readonly who: 0 | 1; readonly from: string; readonly to: string }
  | { readonly kind: 'rename'; readonly from: string; readonly to: string }
  | { readonly kind: 'drop'; readonly name: string };

const who = fc.constantFrom(0 as const, 1 as const);
const name = fc.constantFrom(...NAMES);
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), who, name, value: fc.constantFrom(...VALUES) }),
  fc.record({
    kind: fc.constant('remove' as const),
    who,
    names: fc.uniqueArray(name, { minLength: 1, maxLength: 3 }),
  }),
  fc.record({ kind: fc.constant('move' as const), who, from: name, to: name }),
  fc.record({ kind: fc.constant('rename' as const), from: name, to: name }),
  fc.record({ kind: fc.constant('drop' as const), name }),
);

/** The model: the fields that exist (in creation order) and each customer's values by field name. */
interface Model {
  fields: string[];
  values: [Map<string, string>, Map<string, string>];
}

/** Applies a step to the model; the status the API must answer. */
function modelled(model: Model, step: Step): number {
  const ensure = (field: string) => {
    if (!model.fields.includes(field)) model.fields.push(field);
  };
  switch (step.kind) {
    case 'set':
      ensure(step.name);
      model.values[step.who].set(step.name, step.value);
      return 201;
    case 'remove': {
      const held = step.names.filter((field) => model.values[step.who].has(field));
      for (const field of held) model.values[step.who].delete(field);
      return held.length > 0 ? 200 : 404;
    }
    case 'move': {
      const values = model.values[step.who];
      const value = values.get(step.from);
      // Without a value, a value moved onto its own field has nothing to set.
      if (step.from === step.to) return 422;
      if (value === undefined) return 404;
      values.delete(step.from);
      ensure(step.to);
      values.set(step.to, value);
      return 200;
    }
    case 'rename': {
      if (!model.fields.includes(step.from)) return 404;
      if (step.from === step.to) return 200;
      if (model.fields.includes(step.to)) return 422;
      model.fields = model.fields.map((field) => (field === step.from ? step.to : field));
      for (const values of model.values) {
        const value = values.get(step.from);
        if (value === undefined) continue;
        values.delete(step.from);
        values.set(step.to, value);
      }
      return 200;
    }
    case 'drop':
      if (!model.fields.includes(step.name)) return 404;
      model.fields = model.fields.filter((field) => field !== step.name);
      for (const values of model.values) values.delete(step.name);
      return 200;
  }
}

function request(step: Step, customers: readonly number[]): [string, string, unknown] {
  const values = (index: 0 | 1) => `/customers/${customers[index]}/metadata.json`;
  switch (step.kind) {
    case 'set':
      return ['POST', values(step.who), { metadata: [{ name: step.name, value: step.value }] }];
    case 'remove':
      return ['DELETE', `${values(step.who)}?${step.names.map((n) => `names[]=${n}`).join('&')}`, undefined];
    case 'move':
      return ['PUT', values(step.who), { metadata: { current_name: step.from, name: step.to } }];
    case 'rename':
      return [
        'PUT',
        '/customers/metafields.json',
        { metafields: { current_name: step.from, name: step.to } },
      ];
    case 'drop':
      return ['DELETE', `/customers/metafields.json?name=${step.name}`, undefined];
  }
}

describe('custom fields against a model', () => {
  test.prop([fc.array(stepArb, { maxLength: 25 }), fc.integer({ min: 1, max: 4 })], { numRuns: 60 })(
    'listings, data counts and paging agree with the model after any steps',
    (steps, perPage) => {
      const s = site();
      const customers = [s.customer(), s.customer()];
      const model: Model = { fields: [], values: [new Map(), new Map()] };
      for (const step of steps) {
        const before = s.state;
        const [method, path, body] = request(step, customers);
        const called = s.request(method, path, body);
        expect(called.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(modelled(model, step));
        if (called.status >= 400) expect(called.state).toBe(before);
      }
      customers.forEach((customer, index) => {
        const listed = arr(s.ok('GET', `/customers/${customer}/metadata.json?per_page=200`), 'metadata');
        const held = new Map(listed.map((row) => [str(row, 'name'), str(row, 'value')]));
        expect(held).toEqual(model.values[index as 0 | 1]);
      });
      const fields = arr(s.ok('GET', '/customers/metafields.json'), 'metafields');
      expect(fields.map((field) => str(field, 'name')).sort()).toEqual([...model.fields].sort());
      for (const field of fields) {
        const count = model.values.filter((values) => values.has(str(field, 'name'))).length;
        expect(num(field, 'data_count')).toBe(count);
      }
      const whole = arr(s.ok('GET', '/customers/metadata.json?with_deleted=true&per_page=200'), 'metadata');
      const pages = Math.ceil(whole.length / perPage);
      const paged = Array.from({ length: pages }, (_, i) =>
        arr(
          s.ok('GET', `/customers/metadata.json?with_deleted=true&per_page=${perPage}&page=${i + 1}`),
          'metadata',
        ),
      ).flat();
      expect(paged).toEqual(whole);
      expect(whole.filter((row) => get(row, 'deleted_at') === null)).toHaveLength(
        model.values[0].size + model.values[1].size,
      );
      expect(checkState(s.state)).toEqual([]);
    },
  );
});
