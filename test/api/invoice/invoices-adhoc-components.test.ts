/** Create Invoice (SPEC 2.2): component lines priced by their price points, or by a given unit price. */
import { describe, expect, it } from 'vitest';
import { get, num, type Site, str } from '../../helpers/api.js';
import { componentSite, createComponent, type Kind } from '../../helpers/components.js';
import { type Body, createAdHoc, fields, invoicesPath, refused, remittance } from '../../helpers/invoices.js';

const schemes: Record<string, Body> = {
  volume: {
    name: 'Volume',
    handle: 'volume',
    pricing_scheme: 'volume',
    prices: [
      { starting_quantity: 1, ending_quantity: 10, unit_price: '5' },
      { starting_quantity: 11, unit_price: '4' },
    ],
  },
  tiered: {
    name: 'Tiered',
    handle: 'tiered',
    pricing_scheme: 'tiered',
    prices: [
      { starting_quantity: 1, ending_quantity: 100, unit_price: '0' },
      { starting_quantity: 101, unit_price: '0.5' },
    ],
  },
  stairstep: {
    name: 'Stairstep',
    handle: 'stairstep',
    pricing_scheme: 'stairstep',
    prices: [
      { starting_quantity: 1, ending_quantity: 10, unit_price: '50' },
      { starting_quantity: 11, ending_quantity: 200, unit_price: '80' },
    ],
  },
};

function componentCatalog(): { s: Site; seats: number; sub: number; points: Record<string, number> } {
  const s = componentSite();
  const seats = createComponent(s, 'quantity_based_component', { handle: 'seats', unit_price: '3' });
  const points: Record<string, number> = {};
  for (const [name, body] of Object.entries(schemes))
    points[name] = num(
      s.ok('POST', `/components/${seats}/price_points.json`, { price_point: body }),
      'price_point',
      'id',
    );
  return { s, seats, sub: remittance(s).id, points };
}

describe('create ad hoc invoice: component lines', () => {
  it('prices a quantity-based component at its default per-unit price point, by id or handle', () => {
    const { s, seats, sub } = componentCatalog();
    for (const ref of [seats, 'seats']) {
      const invoice = createAdHoc(s, sub, { line_items: [{ component_id: ref, quantity: 4 }] });
      expect(get(invoice, 'line_items', 0)).toMatchObject({
        component_id: seats,
        price_point_id: expect.any(Number),
        unit_price: '3',
        subtotal_amount: '12.00',
        tiered_unit_price: false,
        kind: 'quantity_based_component',
      });
    }
  });

  it('prices volume, tiered (blended unit price, tiered_unit_price) and stairstep price points', () => {
    const { s, sub, points } = componentCatalog();
    const line = (pricePoint: string | number, quantity: number) =>
      get(
        createAdHoc(s, sub, {
          line_items: [{ component_id: 'seats', price_point_id: pricePoint, quantity }],
        }),
        'line_items',
        0,
      );
    expect(line(points['volume'] ?? 0, 12)).toMatchObject({
      unit_price: '4',
      subtotal_amount: '48.00',
      tiered_unit_price: false,
    });
    expect(line('volume', 3)).toMatchObject({ unit_price: '5', subtotal_amount: '15.00' });
    const tiered = line('handle:tiered', 194);
    expect(tiered).toMatchObject({
      subtotal_amount: '47.00',
      tiered_unit_price: true,
      price_point_id: points['tiered'],
    });
    // reference/api-notes.md 7.3, the Read Invoice example: quantity "194.0", subtotal "47.0",
    // `unit_price` "0.24226804" (= 47 / 194 to 8 dp), `tiered_unit_price` true.
    expect(str(tiered, 'unit_price')).toBe('0.24226804');
    expect(line(points['stairstep'] ?? 0, 12)).toMatchObject({
      subtotal_amount: '80.00',
      tiered_unit_price: false,
    });
  });

  it.each(['prepaid_usage_component', 'event_based_component'] as Kind[])(
    'a %s line needs a unit_price and takes no price point',
    (kind) => {
      const s = componentSite();
      const component = createComponent(s, kind, { handle: 'usage' });
      const { id } = remittance(s);
      const errors = refused(s, 'POST', invoicesPath(id), {
        line_items: [{ component_id: 'usage', quantity: 2 }],
      });
      expect(errors).toEqual({ 'line_items[0].unit_price': [expect.stringMatching(/required/)] });
      const pricePoint = num(
        s.ok('GET', `/components/${component}.json`),
        'component',
        'default_price_point_id',
      );
      const withPoint = { line_items: [{ component_id: 'usage', quantity: 2, price_point_id: pricePoint }] };
      expect(fields(refused(s, 'POST', invoicesPath(id), withPoint))).toContain(
        'line_items[0].price_point_id',
      );
      const invoice = createAdHoc(s, id, {
        line_items: [{ component_id: component, quantity: 2, unit_price: '1.25' }],
      });
      expect(get(invoice, 'line_items', 0)).toMatchObject({
        component_id: component,
        kind,
        subtotal_amount: '2.50',
      });
    },
  );

  it('refuses a price point sent together with a unit price, and a price point of another component', () => {
    const { s, sub, points } = componentCatalog();
    const both = {
      line_items: [{ component_id: 'seats', price_point_id: points['volume'], unit_price: '1', quantity: 1 }],
    };
    expect(fields(refused(s, 'POST', invoicesPath(sub), both))).toEqual(['line_items[0].unit_price']);
    const other = createComponent(s, 'quantity_based_component', { handle: 'other' });
    const foreign = { line_items: [{ component_id: other, price_point_id: points['volume'], quantity: 1 }] };
    expect(fields(refused(s, 'POST', invoicesPath(sub), foreign))).toEqual(['line_items[0].price_point_id']);
  });
});
