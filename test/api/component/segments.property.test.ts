import { test } from '@fast-check/vitest';
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { arr, call, get } from '../../helpers/api.js';
import { componentSite, segmented, segmentRecord } from '../../helpers/components.js';

type Value = string | number | boolean;

/** Distinct first property values (by type and value), possibly with a second property. */
const valuesArb = (min: number, max: number) =>
  fc.uniqueArray(
    fc.oneof(
      fc.string({ minLength: 1, maxLength: 8 }).filter((text) => text.trim().length > 0),
      fc.integer({ min: -1000, max: 1000 }),
      fc.boolean(),
    ),
    { minLength: min, maxLength: max, selector: (value) => JSON.stringify(value) },
  );

const BAD_CREATE = [
  'no_scheme',
  'bad_scheme',
  'gap',
  'negative',
  'blank',
  'skip',
  'not_object',
  'nested_value',
  'duplicate',
  'existing',
] as const;

/** A record that must fail, given the earlier records of the batch and a value that already has a segment. */
function badCreate(kind: (typeof BAD_CREATE)[number], earlier: readonly Value[], existing: Value): unknown {
  const fine = segmentRecord([`bad-${kind}`]);
  switch (kind) {
    case 'no_scheme':
      return { ...fine, pricing_scheme: undefined };
    case 'bad_scheme':
      return { ...fine, pricing_scheme: 'flat' };
    case 'gap':
      return {
        ...fine,
        pricing_scheme: 'tiered',
        prices: [
          { starting_quantity: 1, ending_quantity: 5, unit_price: 1 },
          { starting_quantity: 9, unit_price: 1 },
        ],
      };
    case 'negative':
      return { ...fine, prices: [{ starting_quantity: 1, unit_price: '-0.01' }] };
    case 'blank':
      return { ...fine, segment_property_1_value: '   ' };
    case 'skip':
      return { pricing_scheme: 'per_unit', prices: [{ unit_price: 1 }], segment_property_3_value: 'x' };
    case 'not_object':
      return 'EU';
    case 'nested_value':
      return { ...fine, segment_property_2_value: ['x'] };
    case 'duplicate':
      return segmentRecord([earlier[0] ?? existing]);
    case 'existing':
      return segmentRecord([existing]);
  }
}

describe('segments: bulk requests are all or nothing', () => {
  test.prop([valuesArb(1, 30), fc.nat(), fc.constantFrom(...BAD_CREATE)], { numRuns: 60 })(
    'a create batch with one bad record at a random index: 422 naming that index, state identical',
    (values, at, kind) => {
      const s = componentSite();
      const { bulk, list } = segmented(s);
      s.ok('POST', list, { segment: segmentRecord(['existing']) });
      const records: unknown[] = values.map((value) => segmentRecord([value]));
      const index = at % records.length;
      records[index] = badCreate(kind, values.slice(0, index), 'existing');
      const state = s.state;
      const called = call(state, 'POST', bulk, { segments: records });
      expect(called.status).toBe(422);
      expect(called.state).toBe(state);
      expect(called.events).toEqual([]);
      const failures = get(called.body, 'errors', 'segments');
      expect(Object.keys(failures ?? {})).toEqual([String(index)]);
      expect(
        Object.values(get(failures, String(index)) ?? {}).every(
          (messages) => Array.isArray(messages) && messages.length > 0,
        ),
      ).toBe(true);
      expect(arr(call(state, 'GET', list).body, 'segments')).toHaveLength(1);
    },
  );

  const BAD_UPDATE = [
    'unknown_id',
    'repeated_id',
    'no_scheme',
    'no_prices',
    'two_per_unit',
    'gap',
    'not_object',
  ] as const;

  test.prop([valuesArb(1, 20), fc.nat(), fc.constantFrom(...BAD_UPDATE), fc.string({ maxLength: 4 })], {
    numRuns: 60,
  })(
    'an update batch with one bad item at a random index: 422 naming that index, state identical',
    (values, at, kind, suffix) => {
      const s = componentSite();
      const { bulk } = segmented(s);
      const created = arr(
        s.ok('POST', bulk, { segments: values.map((value) => segmentRecord([value])) }),
        'segments',
      );
      const ids = created.map((segment) => Number(get(segment, 'id')));
      const items: unknown[] = ids.map((id) => ({
        id,
        pricing_scheme: 'per_unit',
        prices: [{ unit_price: `9${suffix.length}` }],
      }));
      const index = at % items.length;
      const id = ids[index] ?? 1;
      const bad: Record<(typeof BAD_UPDATE)[number], unknown> = {
        unknown_id: { id: 9999, pricing_scheme: 'per_unit', prices: [{ unit_price: 1 }] },
        repeated_id: { id: ids[0], pricing_scheme: 'per_unit', prices: [{ unit_price: 1 }] },
        no_scheme: { id, prices: [{ unit_price: 1 }] },
        no_prices: { id, pricing_scheme: 'per_unit' },
        two_per_unit: {
          id,
          pricing_scheme: 'per_unit',
          prices: [
            { starting_quantity: 1, ending_quantity: 2, unit_price: 1 },
            { starting_quantity: 3, unit_price: 1 },
          ],
        },
        gap: {
          id,
          pricing_scheme: 'volume',
          prices: [
            { starting_quantity: 1, ending_quantity: 2, unit_price: 1 },
            { starting_quantity: 4, unit_price: 1 },
          ],
        },
        not_object: 7,
      };
      // A repeated id needs an earlier item to repeat: at index 0 it would be the first use.
      const chosen = kind === 'repeated_id' && index === 0 ? 'unknown_id' : kind;
      items[index] = bad[chosen];
      const state = s.state;
      const called = call(state, 'PUT', bulk, { segments: items });
      expect(called.status).toBe(422);
      expect(called.state).toBe(state);
      expect(Object.keys(get(called.body, 'errors', 'segments') ?? {})).toEqual([String(index)]);
    },
  );

  test.prop([valuesArb(0, 40)], { numRuns: 30 })(
    'a batch of good records creates every one of them, in order',
    (values) => {
      const s = componentSite();
      const { bulk, list } = segmented(s);
      const created = arr(
        s.ok('POST', bulk, { segments: values.map((value) => segmentRecord([value, 'tail'])) }),
        'segments',
      );
      expect(created.map((segment) => get(segment, 'segment_property_1_value'))).toEqual(values);
      const listed = arr(s.ok('GET', `${list}?per_page=200`), 'segments');
      expect(listed.map((segment) => get(segment, 'id'))).toEqual(
        created.map((segment) => get(segment, 'id')),
      );
    },
  );
});
