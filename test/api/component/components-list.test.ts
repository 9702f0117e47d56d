import { describe, expect, it } from 'vitest';
import type { Site } from '../../helpers/api.js';
import { componentIds, componentSite, createComponent } from '../../helpers/components.js';

const ids = (s: Site, path: string) => componentIds(s.ok('GET', path));

describe('components: list', () => {
  it('lists unarchived components in id order; include_archived=true shows the archived ones too', () => {
    const s = componentSite();
    const family = s.family();
    const a = createComponent(s, 'metered_component', {}, family);
    const b = createComponent(s, 'on_off_component', {}, family);
    const c = createComponent(s, 'event_based_component');
    s.ok('DELETE', `/product_families/${family}/components/${b}.json`);
    expect(ids(s, '/components.json')).toEqual([a, c]);
    expect(ids(s, '/components.json?include_archived=true')).toEqual([a, b, c]);
    expect(ids(s, '/components.json?include_archived=1')).toEqual([a, b, c]);
    expect(ids(s, '/components.json?include_archived=false')).toEqual([a, c]);
    expect(ids(s, `/product_families/${family}/components.json`)).toEqual([a]);
    expect(ids(s, `/product_families/${family}/components.json?include_archived=true`)).toEqual([a, b]);
    s.fail('GET', '/product_families/99/components.json', undefined, 404);
  });

  it('pages by 20 by default, clamps per_page to 200, and answers [] beyond the last page', () => {
    const s = componentSite();
    const family = s.family();
    const all = Array.from({ length: 205 }, () => createComponent(s, 'metered_component', {}, family));
    expect(ids(s, '/components.json')).toEqual(all.slice(0, 20));
    expect(ids(s, '/components.json?page=2&per_page=50')).toEqual(all.slice(50, 100));
    expect(ids(s, '/components.json?per_page=1000')).toEqual(all.slice(0, 200));
    expect(ids(s, '/components.json?per_page=1000&page=2')).toEqual(all.slice(200));
    expect(ids(s, '/components.json?page=11')).toEqual(all.slice(200));
    expect(ids(s, '/components.json?page=12')).toEqual([]);
  });

  it('filters by ids and by the default price point use_site_exchange_rate', () => {
    const s = componentSite();
    const a = createComponent(s, 'metered_component');
    const b = createComponent(s, 'metered_component', { use_site_exchange_rate: false });
    const c = createComponent(s, 'metered_component');
    expect(ids(s, `/components.json?filter[ids]=${a},${c}`)).toEqual([a, c]);
    expect(ids(s, `/components.json?filter[ids][]=${b}&filter[ids][]=${c}`)).toEqual([b, c]);
    expect(ids(s, '/components.json?filter[use_site_exchange_rate]=false')).toEqual([b]);
    expect(ids(s, '/components.json?filter[use_site_exchange_rate]=true')).toEqual([a, c]);
  });

  it('refuses bad parameters (422) without changing anything', () => {
    const s = componentSite();
    createComponent(s, 'metered_component');
    for (const query of [
      'page=0',
      'page=x',
      'per_page=0',
      'per_page=-5',
      'include_archived=yes',
      'date_field=deleted_at',
      'start_date=2026-13-01',
      'end_date=tomorrow',
      'start_datetime=2026-01-01T25:00:00',
      'end_datetime=soon',
      'filter[ids]=1,x',
      'filter[use_site_exchange_rate]=maybe',
    ]) {
      s.fail('GET', `/components.json?${query}`, undefined, 422);
    }
  });

  it('bounds by whole local days of the site zone on created_at', () => {
    const s = componentSite({ timeZone: 'America/New_York' }, '2026-03-01T04:59:59Z');
    const family = s.family();
    const lateFeb28 = createComponent(s, 'metered_component', {}, family); // 23:59:59 on Feb 28 in New York
    s.at('2026-03-01T05:00:00Z');
    const earlyMar1 = createComponent(s, 'metered_component', {}, family); // 00:00:00 on Mar 1
    s.at('2026-03-02T04:59:59.500Z');
    const lateMar1 = createComponent(s, 'metered_component', {}, family); // 23:59:59.5 on Mar 1
    s.at('2026-03-02T05:00:00Z');
    const mar2 = createComponent(s, 'metered_component', {}, family);
    const q = (range: string) => ids(s, `/components.json?date_field=created_at&${range}`);
    expect(q('start_date=2026-03-01&end_date=2026-03-01')).toEqual([earlyMar1, lateMar1]);
    expect(q('end_date=2026-02-28')).toEqual([lateFeb28]);
    expect(q('start_date=2026-03-02')).toEqual([mar2]);
    expect(q('filter[date_field]=created_at&filter[start_date]=2026-03-02')).toEqual([mar2]);
    expect(q('start_date=2026-03-03')).toEqual([]);
  });

  it('lets start_datetime and end_datetime (site zone unless given) take precedence over dates', () => {
    const s = componentSite({ timeZone: 'Europe/Paris' }, '2026-06-10T08:00:00Z');
    const a = createComponent(s, 'metered_component'); // 10:00 in Paris
    s.at('2026-06-10T10:00:00Z');
    const b = createComponent(s, 'metered_component'); // 12:00 in Paris
    const q = (range: string) => ids(s, `/components.json?date_field=created_at&${range}`);
    expect(q('start_date=2026-06-10&start_datetime=2026-06-10 11:00:00')).toEqual([b]);
    expect(q('end_date=2026-06-10&end_datetime=2026-06-10 10:00:00')).toEqual([a]);
    expect(q('end_datetime=2026-06-10 09:59:59')).toEqual([]);
    expect(q('start_datetime=2026-06-10T09:00:00Z')).toEqual([b]);
    expect(q('start_datetime=2026-06-10T10:00:00%2B00:00&end_datetime=2026-06-10T10:00:00Z')).toEqual([b]);
  });

  it('uses updated_at by default, so an update moves a component into a later range', () => {
    const s = componentSite({}, '2026-01-10T12:00:00Z');
    const a = createComponent(s, 'metered_component');
    const b = createComponent(s, 'metered_component');
    s.at('2026-01-20T12:00:00Z');
    s.ok('PUT', `/components/${a}.json`, { component: { name: 'Renamed' } });
    expect(ids(s, '/components.json?start_date=2026-01-20')).toEqual([a]);
    expect(ids(s, '/components.json?date_field=updated_at&end_date=2026-01-19')).toEqual([b]);
    expect(ids(s, '/components.json?date_field=created_at&end_date=2026-01-19')).toEqual([a, b]);
  });
});
