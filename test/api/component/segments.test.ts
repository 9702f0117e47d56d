import { describe, expect, it } from 'vitest';
import { arr, get, num } from '../../helpers/api.js';
import { componentSite, createComponent, segmented, segmentRecord } from '../../helpers/components.js';

describe('segments: one at a time', () => {
  it('creates a segment of an event-based price point (201)', () => {
    const s = componentSite();
    const { component, pricePoint, list } = segmented(s);
    const called = s.request('POST', list, {
      segment: {
        segment_property_1_value: 'EU',
        segment_property_2_value: 3,
        segment_property_3_value: true,
        pricing_scheme: 'tiered',
        prices: [
          { starting_quantity: 1, ending_quantity: 100, unit_price: '0' },
          { ending_quantity: null, unit_price: '0.05' },
        ],
      },
    });
    expect(called.status).toBe(201);
    expect(called.events).toEqual([]);
    expect(called.body).toMatchObject({
      segment: {
        id: 1,
        component_id: component,
        price_point_id: pricePoint,
        event_based_billing_metric_id: 7,
        pricing_scheme: 'tiered',
        segment_property_1_value: 'EU',
        segment_property_2_value: 3,
        segment_property_3_value: true,
        segment_property_4_value: null,
        created_at: '2026-01-15T12:00:00Z',
        prices: [
          {
            starting_quantity: 1,
            ending_quantity: 100,
            unit_price: '0',
            segment_id: 1,
            price_point_id: pricePoint,
          },
          { starting_quantity: 101, ending_quantity: null, unit_price: '0.05', segment_id: 1 },
        ],
      },
    });
  });

  it('refuses bad segments with {errors: {field: [...]}} (422)', () => {
    const s = componentSite();
    const { list } = segmented(s);
    s.ok('POST', list, { segment: segmentRecord(['EU']) });
    const refused = (segment: Record<string, unknown>) => s.fail('POST', list, { segment }, 422);
    expect(refused({ ...segmentRecord(['EU']) })).toMatchObject({
      errors: { segment_property_1_value: [expect.stringMatching(/already/)] },
    });
    expect(refused({ ...segmentRecord(['US']), pricing_scheme: undefined })).toEqual({
      errors: { pricing_scheme: ['is required'] },
    });
    expect(refused(segmentRecord([]))).toEqual({ errors: { segment_property_1_value: ['is required'] } });
    expect(refused(segmentRecord([' ']))).toEqual({
      errors: { segment_property_1_value: ['cannot be blank'] },
    });
    expect(
      refused({ segment_property_2_value: 'x', pricing_scheme: 'per_unit', prices: [{ unit_price: 1 }] }),
    ).toMatchObject({
      errors: { segment_property_1_value: [expect.stringMatching(/segment_property_2_value/)] },
    });
    expect(refused({ ...segmentRecord(['US']), prices: [] })).toMatchObject({
      errors: { prices: [expect.any(String)] },
    });
    expect(
      refused({
        ...segmentRecord(['US']),
        pricing_scheme: 'volume',
        prices: [
          { starting_quantity: 1, ending_quantity: 5, unit_price: 1 },
          { starting_quantity: 7, unit_price: 1 },
        ],
      }),
    ).toMatchObject({ errors: { prices: [expect.stringMatching(/right after/)] } });
    expect(refused({ ...segmentRecord(['US']), segment_property_1_value: { nested: true } })).toMatchObject({
      errors: { segment_property_1_value: [expect.any(String)] },
    });
    s.fail('POST', list, undefined, 422);
  });

  it('tells values apart by type, and allows the same values on another price point', () => {
    const s = componentSite();
    const { component, list } = segmented(s);
    s.ok('POST', list, { segment: segmentRecord(['1']) });
    s.ok('POST', list, { segment: segmentRecord([1]) });
    s.ok('POST', list, { segment: segmentRecord([true]) });
    s.ok('POST', list, { segment: segmentRecord(['1', 'x']) });
    const other = num(
      s.ok('POST', `/components/${component}/price_points.json`, {
        price_point: { name: 'B', pricing_scheme: 'per_unit', unit_price: 2 },
      }),
      'price_point',
      'id',
    );
    s.ok('POST', `/components/${component}/price_points/${other}/segments.json`, {
      segment: segmentRecord(['1']),
    });
  });

  it('belongs to event-based components only (422), by id or handle; 404 for unknown parts', () => {
    const s = componentSite();
    const metered = createComponent(s, 'metered_component');
    expect(
      s.fail(
        'POST',
        `/components/${metered}/price_points/1/segments.json`,
        { segment: segmentRecord(['EU']) },
        422,
      ),
    ).toMatchObject({
      errors: { price_point: [expect.any(String)] },
    });
    const { component, pricePoint } = segmented(s, { handle: 'calls' });
    s.ok('PUT', `/components/${component}/price_points/${pricePoint}.json`, {
      price_point: { handle: 'standard' },
    });
    s.ok('POST', '/components/handle:calls/price_points/handle:standard/segments.json', {
      segment: segmentRecord(['EU']),
    });
    s.fail('POST', '/components/99/price_points/1/segments.json', { segment: segmentRecord(['EU']) }, 404);
    s.fail(
      'POST',
      `/components/${component}/price_points/1/segments.json`,
      { segment: segmentRecord(['EU']) },
      404,
    );
  });

  it('lists the segments of a price point, filtered by property values and paged', () => {
    const s = componentSite();
    const { list } = segmented(s);
    for (const values of [
      ['EU', 'gold'],
      ['EU', 'silver'],
      ['US', 'gold'],
      [1, false],
    ])
      s.ok('POST', list, { segment: segmentRecord(values) });
    const ids = (query: string) =>
      arr(s.ok('GET', `${list}${query}`), 'segments').map((segment) => num(segment, 'id'));
    expect(ids('')).toEqual([1, 2, 3, 4]);
    expect(ids('?filter[segment_property_1_value]=EU')).toEqual([1, 2]);
    expect(ids('?filter[segment_property_2_value]=gold')).toEqual([1, 3]);
    expect(ids('?filter[segment_property_1_value]=EU&filter[segment_property_2_value]=gold')).toEqual([1]);
    expect(ids('?filter[segment_property_2_value]=false')).toEqual([4]);
    expect(ids('?per_page=3&page=2')).toEqual([4]);
    expect(s.fail('GET', `${list}?per_page=0`, undefined, 422)).toEqual({
      errors: { per_page: ['must be a whole number of at least 1'] },
    });
  });

  it('updates the pricing of one segment, keeping its prices when none are sent', () => {
    const s = componentSite();
    const { base, list } = segmented(s);
    const id = num(s.ok('POST', list, { segment: segmentRecord(['EU'], '1') }), 'segment', 'id');
    s.at('2026-01-16T00:00:00Z');
    expect(s.ok('PUT', `${base}/${id}.json`, { segment: { pricing_scheme: 'volume' } })).toMatchObject({
      segment: {
        pricing_scheme: 'volume',
        prices: [{ unit_price: '1' }],
        updated_at: '2026-01-16T00:00:00Z',
      },
    });
    const body = s.ok('PUT', `${base}/${id}.json`, {
      segment: {
        pricing_scheme: 'stairstep',
        prices: [{ starting_quantity: 1, ending_quantity: 10, unit_price: 5 }, { unit_price: 9 }],
      },
    });
    expect(get(body, 'segment', 'prices', 1)).toMatchObject({ starting_quantity: 11, unit_price: '9' });
    expect(s.fail('PUT', `${base}/${id}.json`, { segment: { prices: [{ unit_price: 1 }] } }, 422)).toEqual({
      errors: { pricing_scheme: ['is required'] },
    });
    s.fail('PUT', `${base}/${id}.json`, { segment: { pricing_scheme: 'per_unit' } }, 422);
    s.fail('PUT', `${base}/99.json`, { segment: { pricing_scheme: 'per_unit' } }, 404);
  });

  it('deletes one segment (204, no body); its combination is free again', () => {
    const s = componentSite();
    const { base, list } = segmented(s);
    const id = num(s.ok('POST', list, { segment: segmentRecord(['EU']) }), 'segment', 'id');
    const deleted = s.request('DELETE', `${base}/${id}.json`);
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBeUndefined();
    s.fail('DELETE', `${base}/${id}.json`, undefined, 404);
    s.fail('PUT', `${base}/${id}.json`, { segment: { pricing_scheme: 'per_unit' } }, 404);
    expect(arr(s.ok('GET', list), 'segments')).toEqual([]);
    s.ok('POST', list, { segment: segmentRecord(['EU']) });
  });

  it('answers 404 for a segment of another price point', () => {
    const s = componentSite();
    const first = segmented(s);
    const second = segmented(s);
    const id = num(s.ok('POST', first.list, { segment: segmentRecord(['EU']) }), 'segment', 'id');
    s.fail('DELETE', `${second.base}/${id}.json`, undefined, 404);
    s.fail('PUT', `${second.base}/${id}.json`, { segment: { pricing_scheme: 'per_unit' } }, 404);
  });
});

describe('segments: bulk', () => {
  it('creates many at once (201) and updates many at once (200)', () => {
    const s = componentSite();
    const { bulk, list } = segmented(s);
    const created = s.ok('POST', bulk, {
      segments: [segmentRecord(['EU']), segmentRecord(['US']), segmentRecord(['APAC'])],
    });
    const ids = arr(created, 'segments').map((segment) => num(segment, 'id'));
    expect(ids).toEqual([1, 2, 3]);
    const updated = s.ok('PUT', bulk, {
      segments: [
        { id: 3, pricing_scheme: 'per_unit', prices: [{ unit_price: '7' }] },
        { id: 1, pricing_scheme: 'volume', prices: [{ starting_quantity: 1, unit_price: '2' }] },
      ],
    });
    expect(
      arr(updated, 'segments').map((segment) => [
        get(segment, 'id'),
        get(segment, 'prices', 0, 'unit_price'),
      ]),
    ).toEqual([
      [3, '7'],
      [1, '2'],
    ]);
    expect(
      arr(s.ok('GET', list), 'segments').map((segment) => get(segment, 'prices', 0, 'unit_price')),
    ).toEqual(['2', '1', '7']);
  });

  it('accepts exactly 2000 records to create and refuses 2001 (422)', () => {
    const s = componentSite();
    const { bulk } = segmented(s);
    const records = Array.from({ length: 2001 }, (_, index) => segmentRecord([`r${index}`]));
    expect(s.fail('POST', bulk, { segments: records }, 422)).toMatchObject({
      errors: { segments: [expect.stringMatching(/2000/)] },
    });
    expect(arr(s.ok('POST', bulk, { segments: records.slice(0, 2000) }), 'segments')).toHaveLength(2000);
  });

  it('refuses more than 1000 records to update (422), and a body without a segments array', () => {
    const s = componentSite();
    const { bulk } = segmented(s);
    s.ok('POST', bulk, { segments: [segmentRecord(['EU'])] });
    const items = Array.from({ length: 1001 }, () => ({
      id: 1,
      pricing_scheme: 'per_unit',
      prices: [{ unit_price: 1 }],
    }));
    expect(s.fail('PUT', bulk, { segments: items }, 422)).toMatchObject({
      errors: { segments: [expect.stringMatching(/1000/)] },
    });
    s.fail('POST', bulk, { segments: 'EU' }, 422);
    s.fail('PUT', bulk, {}, 422);
  });

  it('fails the whole request on one bad record, naming only the first one by its index', () => {
    const s = componentSite();
    const { bulk, list } = segmented(s);
    s.ok('POST', list, { segment: segmentRecord(['EU']) });
    expect(
      s.fail(
        'POST',
        bulk,
        { segments: [segmentRecord(['US']), segmentRecord(['EU']), segmentRecord([])] },
        422,
      ),
    ).toEqual({
      errors: {
        segments: {
          '1': {
            segment_property_1_value: ['this combination of segment property values already has a segment'],
          },
        },
      },
    });
    expect(
      s.fail('POST', bulk, { segments: [segmentRecord(['US']), segmentRecord(['US'])] }, 422),
    ).toMatchObject({
      errors: { segments: { '1': { segment_property_1_value: [expect.any(String)] } } },
    });
    expect(
      s.fail('POST', bulk, { segments: [segmentRecord(['US']), { segment_property_1_value: 'X' }] }, 422),
    ).toEqual({
      errors: { segments: { '1': { pricing_scheme: ['is required'] } } },
    });
    const good = { id: 1, pricing_scheme: 'per_unit', prices: [{ unit_price: 5 }] };
    expect(s.fail('PUT', bulk, { segments: [good, { ...good, id: 99 }] }, 422)).toEqual({
      errors: { segments: { '1': { id: ['is not a segment of this price point'] } } },
    });
    expect(s.fail('PUT', bulk, { segments: [good, good] }, 422)).toMatchObject({
      errors: { segments: { '1': { id: [expect.any(String)] } } },
    });
    expect(s.fail('PUT', bulk, { segments: [{ ...good, prices: undefined }] }, 422)).toEqual({
      errors: { segments: { '0': { prices: ['is required'] } } },
    });
    expect(arr(s.ok('GET', list), 'segments')).toHaveLength(1);
    expect(get(s.ok('GET', list), 'segments', 0, 'prices', 0, 'unit_price')).toBe('1');
  });

  it('belongs to event-based components only', () => {
    const s = componentSite();
    const metered = createComponent(s, 'metered_component');
    s.fail(
      'POST',
      `/components/${metered}/price_points/1/segments/bulk.json`,
      { segments: [segmentRecord(['EU'])] },
      422,
    );
    s.fail('POST', '/components/99/price_points/1/segments/bulk.json', { segments: [] }, 404);
  });
});
