/**
 * `GET /{resource_type}/metadata.json`: the values of every resource of a type, paged in id order (or
 * newest first), narrowed by resource ids and by the date they were created or last changed (dates read
 * in the site's zone), with removed values only on request.
 */
import { describe, expect, it } from 'vitest';
import { arr, get, site } from '../../helpers/api.js';

const DAY1 = '2026-03-01T10:00:00Z';
const DAY2 = '2026-03-02T10:00:00Z';
const DAY3 = '2026-03-03T10:00:00Z';

/** Three customers with a value each, set on three days; the second's removed on the third day. */
function threeCustomers() {
  const s = site({ timeZone: 'America/New_York' }, DAY1);
  const ids = [s.customer(), s.customer(), s.customer()];
  const set = (id: number, value: string) =>
    s.ok('POST', `/customers/${id}/metadata.json`, { metadata: { name: 'plan', value } });
  set(ids[0] ?? 0, 'a');
  s.at(DAY2);
  set(ids[1] ?? 0, 'b');
  s.at(DAY3);
  set(ids[2] ?? 0, 'c');
  s.ok('DELETE', `/customers/${ids[1]}/metadata.json?name=plan`);
  return { s, ids };
}

const values = (body: unknown) => arr(body, 'metadata').map((row) => get(row, 'value'));

describe('listing the values of a resource type', () => {
  it('lists held values in id order, paged, and newest first with direction=desc', () => {
    const { s } = threeCustomers();
    const all = s.ok('GET', '/customers/metadata.json');
    expect(all).toMatchObject({ total_count: 2, current_page: 1, total_pages: 1, per_page: 20 });
    expect(values(all)).toEqual(['a', 'c']);
    expect(values(s.ok('GET', '/customers/metadata.json?direction=desc&per_page=1'))).toEqual(['c']);
    expect(values(s.ok('GET', '/customers/metadata.json?page=2&per_page=1'))).toEqual(['c']);
    expect(s.ok('GET', '/subscriptions/metadata.json')).toMatchObject({ total_count: 0, metadata: [] });
  });

  it('shows removed values with with_deleted=true, stamped with when they were removed', () => {
    const { s } = threeCustomers();
    const all = s.ok('GET', '/customers/metadata.json?with_deleted=true');
    expect(values(all)).toEqual(['a', 'b', 'c']);
    expect(arr(all, 'metadata').map((row) => get(row, 'deleted_at'))).toEqual([
      null,
      '2026-03-03T05:00:00-05:00',
      null,
    ]);
    expect(
      values(s.ok('GET', '/customers/metadata.json?with_deleted=true&direction=desc&page=2&per_page=2')),
    ).toEqual(['a']);
  });

  it('narrows to resource ids', () => {
    const { s, ids } = threeCustomers();
    const query = `resource_ids[]=${ids[2]}&resource_ids[]=${ids[1]}&resource_ids[]=${ids[0]}`;
    expect(values(s.ok('GET', `/customers/metadata.json?${query}`))).toEqual(['a', 'c']);
    expect(values(s.ok('GET', `/customers/metadata.json?${query}&with_deleted=1&direction=desc`))).toEqual([
      'c',
      'b',
      'a',
    ]);
  });

  it('narrows by created_at or updated_at, by dates in the site zone or by date-times', () => {
    const { s } = threeCustomers();
    const created = '/customers/metadata.json?with_deleted=true&date_field=created_at';
    expect(values(s.ok('GET', `${created}&start_date=2026-03-02`))).toEqual(['b', 'c']);
    expect(values(s.ok('GET', `${created}&end_date=2026-03-02`))).toEqual(['a', 'b']);
    expect(values(s.ok('GET', `${created}&start_datetime=2026-03-02T10:00:01Z`))).toEqual(['c']);
    const updated = '/customers/metadata.json?with_deleted=true&start_date=2026-03-03';
    expect(values(s.ok('GET', updated))).toEqual(['b', 'c']);
    expect(s.ok('GET', `${updated}&per_page=1&page=2`)).toMatchObject({ total_count: 2, total_pages: 2 });
  });

  it('pages a creation date range by position, both ways, removed values included on request', () => {
    const s = site({}, '2026-04-01T12:00:00Z');
    const days = [1, 2, 3, 4, 5, 6];
    const customers = days.map(() => s.customer());
    days.forEach((day, index) => {
      s.at(`2026-04-0${day}T12:00:00Z`);
      s.ok('POST', `/customers/${customers[index]}/metadata.json`, {
        metadata: { name: 'day', value: `d${day}` },
      });
    });
    s.ok('DELETE', `/customers/${customers[2]}/metadata.json?name=day`);
    for (const withDeleted of [true, false])
      for (const [start, end] of [
        ['2026-04-02', '2026-04-05'],
        ['2026-04-04', ''],
        ['', '2026-04-01'],
        ['2026-04-07', ''],
      ] as const)
        for (const direction of ['asc', 'desc'] as const)
          for (const perPage of [1, 2, 5]) {
            const inRange = days
              .filter((day) => (withDeleted || day !== 3) && (start === '' || `2026-04-0${day}` >= start))
              .filter((day) => end === '' || `2026-04-0${day}` <= end)
              .map((day) => `d${day}`);
            const expected = direction === 'asc' ? inRange : [...inRange].reverse();
            const base = `/customers/metadata.json?date_field=created_at&start_date=${start}&end_date=${end}&with_deleted=${withDeleted}&direction=${direction}&per_page=${perPage}`;
            const pages = Math.max(1, Math.ceil(expected.length / perPage));
            const seen = Array.from({ length: pages + 1 }, (_, i) =>
              values(s.ok('GET', `${base}&page=${i + 1}`)),
            ).flat();
            expect(seen, base).toEqual(expected);
            expect(s.ok('GET', base), base).toMatchObject({ total_count: expected.length });
          }
  });

  it.each([
    ['resource_ids=x', 'resource_ids'],
    ['with_deleted=maybe', 'with_deleted'],
    ['date_field=paid_at', 'date_field'],
    ['start_date=03/01/2026', 'date'],
    ['direction=sideways', 'direction'],
  ])('refuses %s with a 422 naming it', (query, name) => {
    const { s } = threeCustomers();
    expect(JSON.stringify(s.fail('GET', `/customers/metadata.json?${query}`, undefined, 422))).toContain(
      name,
    );
  });
});
