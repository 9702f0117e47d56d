/** Coupons on ad hoc invoices (SPEC 2.2, CONTRACT 7): catalog by code or subcode, ad hoc, strategies. */
import { describe, expect, it } from 'vitest';
import { arr, get, num, type Site, site } from '../../helpers/api.js';
import {
  type Body,
  createAdHoc,
  custom,
  expectIdentities,
  fields,
  invoicesPath,
  refused,
  remittance,
} from '../../helpers/invoices.js';

/** A family `plans` with product `gold` ($100), component `seats` ($1/seat) and coupons; a remittance sub. */
function setup() {
  const s = site();
  const family = s.family('plans');
  const gold = s.product({ handle: 'gold', name: 'Gold', price_in_cents: 10_000 }, family);
  const seats = num(
    s.ok('POST', `/product_families/${family}/quantity_based_components.json`, {
      quantity_based_component: {
        name: 'Seats',
        handle: 'seats',
        unit_name: 'seat',
        pricing_scheme: 'per_unit',
        unit_price: 1,
      },
    }),
    'component',
    'id',
  );
  const coupon = (body: Body) =>
    num(s.ok('POST', `/product_families/${family}/coupons.json`, body), 'coupon', 'id');
  const ten = coupon({ coupon: { name: 'Ten', code: 'TEN', percentage: '10', description: 'Ten percent' } });
  return { s, family, gold, seats, coupon, ten, sub: remittance(s).id };
}

const hundred = custom('Item', 1, '100');
const create = (s: Site, sub: number, coupons: unknown[], lines: Body[] = [hundred]) => {
  const invoice = createAdHoc(s, sub, { line_items: lines, coupons });
  expectIdentities(invoice);
  return invoice;
};

describe('ad hoc invoice coupons: catalog coupons', () => {
  it('applies a catalog coupon by code, a lower-case code included', () => {
    const { s, sub, ten } = setup();
    for (const code of ['TEN', 'ten', ' Ten ']) {
      const invoice = create(s, sub, [{ code }]);
      expect(invoice).toMatchObject({
        discount_amount: '10.00',
        total_amount: '90.00',
        discounts: [
          {
            code: 'TEN',
            source_type: 'Coupon',
            source_id: ten,
            discount_type: 'percentage',
            percentage: '10',
            eligible_amount: '100.00',
            discount_amount: '10.00',
          },
        ],
      });
    }
  });

  it('ignores percentage and amount sent with the code of a catalog coupon', () => {
    const { s, sub } = setup();
    expect(get(create(s, sub, [{ code: 'ten', percentage: '50' }]), 'discount_amount')).toBe('10.00');
    expect(get(create(s, sub, [{ code: 'ten', amount: '50' }]), 'discount_amount')).toBe('10.00');
  });

  it('applies a catalog coupon by subcode (case-insensitive); the discount carries the code and subcode', () => {
    const { s, sub, ten } = setup();
    s.ok('POST', `/coupons/${ten}/codes.json`, { codes: ['SPRING'] });
    const invoice = create(s, sub, [{ subcode: 'spring' }]);
    expect(get(invoice, 'discount_amount')).toBe('10.00');
    expect(get(invoice, 'discounts', 0)).toMatchObject({ code: 'TEN', source_id: ten, subcode: 'SPRING' });
  });

  it('refuses a subcode that matches nothing, an unknown code without amount, and code with subcode', () => {
    const { s, sub, ten } = setup();
    s.ok('POST', `/coupons/${ten}/codes.json`, { codes: ['SPRING'] });
    const path = invoicesPath(sub);
    const body = (coupons: Body[]) => ({ line_items: [hundred], coupons });
    expect(fields(refused(s, 'POST', path, body([{ subcode: 'AUTUMN' }])))).toEqual(['coupons[0].subcode']);
    expect(fields(refused(s, 'POST', path, body([{ subcode: 'TEN' }])))).toEqual(['coupons[0].subcode']);
    expect(fields(refused(s, 'POST', path, body([{ code: 'NOPE' }])))).toEqual(['coupons[0].code']);
    expect(
      fields(refused(s, 'POST', path, body([{ code: 'TEN' }, { code: 'TEN', subcode: 'SPRING' }]))),
    ).toEqual(['coupons[1].code']);
    expect(fields(refused(s, 'POST', path, body([{ percentage: '5' }])))).toEqual(['coupons[0].code']);
  });

  it('matches a catalog coupon within the product family given by id or handle', () => {
    const { s, sub, family } = setup();
    for (const product_family_id of [family, 'plans', 'handle:plans'])
      expect(get(create(s, sub, [{ code: 'TEN', product_family_id }]), 'discounts', 0, 'source_type')).toBe(
        'Coupon',
      );
    const other = s.family('other');
    const path = invoicesPath(sub);
    expect(
      fields(
        refused(s, 'POST', path, {
          line_items: [hundred],
          coupons: [{ code: 'TEN', product_family_id: other }],
        }),
      ),
    ).toEqual(['coupons[0].code']);
    expect(
      fields(
        refused(s, 'POST', path, {
          line_items: [hundred],
          coupons: [{ code: 'TEN', product_family_id: 'nope' }],
        }),
      ),
    ).toEqual(['coupons[0].product_family_id']);
  });

  it('refuses an archived or expired catalog coupon', () => {
    const { s, sub, family, coupon } = setup();
    const old = coupon({ coupon: { name: 'Old', code: 'OLD', percentage: '5', end_date: '2026-01-01' } });
    expect(old).toBeGreaterThan(0);
    const gone = coupon({ coupon: { name: 'Gone', code: 'GONE', percentage: '5' } });
    s.ok('DELETE', `/product_families/${family}/coupons/${gone}.json`, undefined, 200);
    for (const code of ['OLD', 'GONE'])
      expect(
        fields(refused(s, 'POST', invoicesPath(sub), { line_items: [hundred], coupons: [{ code }] })),
      ).toEqual(['coupons[0].code']);
  });

  it('a restricted coupon discounts only the products and components it names', () => {
    const { s, sub, coupon, gold, seats } = setup();
    coupon({
      coupon: { name: 'Gold only', code: 'GOLDONLY', percentage: '50' },
      restricted_products: { [gold]: true },
    });
    coupon({
      coupon: { name: 'Seats only', code: 'SEATSONLY', amount_in_cents: 300 },
      restricted_components: { [seats]: true },
    });
    const lines = [hundred, { product_id: 'gold', quantity: 1 }, { component_id: 'seats', quantity: 10 }];
    const invoice = create(s, sub, [{ code: 'goldonly' }, { code: 'seatsonly' }], lines);
    const [customLine, goldLine, seatsLine] = arr(invoice, 'line_items');
    expect(customLine).toMatchObject({ discount_amount: '0.00', total_amount: '100.00' });
    expect(goldLine).toMatchObject({ discount_amount: '50.00', total_amount: '50.00' });
    expect(seatsLine).toMatchObject({ discount_amount: '3.00', total_amount: '7.00' });
    expect(invoice).toMatchObject({
      subtotal_amount: '210.00',
      discount_amount: '53.00',
      discounts: [
        { code: 'GOLDONLY', eligible_amount: '100.00', discount_amount: '50.00' },
        { code: 'SEATSONLY', discount_amount: '3.00' },
      ],
    });
  });
});

describe('ad hoc invoice coupons: ad hoc coupons', () => {
  it('applies an ad hoc percentage with up to 4 decimals, upper-casing its code', () => {
    const { s, sub } = setup();
    const invoice = create(
      s,
      sub,
      [{ code: 'promo', percentage: '12.3456', description: 'Promo' }],
      [custom('A', 1, '1000')],
    );
    expect(invoice).toMatchObject({
      discount_amount: '123.46',
      discounts: [
        { code: 'PROMO', source_type: 'Ad Hoc Coupon', discount_type: 'percentage', percentage: '12.3456' },
      ],
    });
    expect(get(create(s, sub, [{ code: 'ALL', percentage: 100 }]), 'total_amount')).toBe('0.00');
    expect(get(create(s, sub, [{ code: 'NONE', percentage: '0' }]), 'total_amount')).toBe('100.00');
  });

  it.each<[string, Body]>([
    ['a percentage over 100', { code: 'X', percentage: '100.0001' }],
    ['a percentage with 5 decimals', { code: 'X', percentage: '1.23456' }],
    ['a negative percentage', { code: 'X', percentage: '-1' }],
    ['a non-numeric percentage', { code: 'X', percentage: 'ten' }],
    ['percentage together with amount', { code: 'X', percentage: '10', amount: '5' }],
  ])('refuses %s under coupons[i].percentage (422)', (_name, coupon) => {
    const { s, sub } = setup();
    const errors = refused(s, 'POST', invoicesPath(sub), {
      line_items: [hundred],
      coupons: [{ code: 'A', amount: 1 }, coupon],
    });
    expect(fields(errors)).toEqual(['coupons[1].percentage']);
  });

  it('refuses an ad hoc amount with more decimals than money has, or negative (422 under coupons[i].amount)', () => {
    const { s, sub } = setup();
    for (const amount of ['1.001', '-5'])
      expect(
        fields(
          refused(s, 'POST', invoicesPath(sub), { line_items: [hundred], coupons: [{ code: 'A', amount }] }),
        ),
      ).toEqual(['coupons[0].amount']);
  });

  it('applies an ad hoc amount, and caps an amount larger than the subtotal at the subtotal', () => {
    const { s, sub } = setup();
    expect(create(s, sub, [{ code: 'five', amount: '5' }])).toMatchObject({
      discount_amount: '5.00',
      total_amount: '95.00',
      discounts: [{ code: 'FIVE', source_type: 'Ad Hoc Coupon', discount_amount: '5.00' }],
    });
    const lines = [custom('A', 1, '20'), custom('B', 1, '10')];
    const capped = create(s, sub, [{ code: 'BIG', amount: '500' }], lines);
    expect(capped).toMatchObject({
      subtotal_amount: '30.00',
      discount_amount: '30.00',
      total_amount: '0.00',
    });
    expect(arr(capped, 'line_items').map((line) => get(line, 'total_amount'))).toEqual(['0.00', '0.00']);
    const twice = create(
      s,
      sub,
      [
        { code: 'A', amount: '25' },
        { code: 'B', amount: '25' },
      ],
      lines,
    );
    expect(twice).toMatchObject({ discount_amount: '30.00', total_amount: '0.00' });
  });

  it('compound percentages apply to what is left, full-price ones to the original price', () => {
    const { s, sub } = setup();
    const a = { code: 'A', percentage: '10' };
    expect(get(create(s, sub, [a, { code: 'B', percentage: '20' }]), 'discount_amount')).toBe('28.00');
    expect(
      get(
        create(s, sub, [a, { code: 'B', percentage: '20', compounding_strategy: 'compound' }]),
        'discount_amount',
      ),
    ).toBe('28.00');
    const full = create(s, sub, [a, { code: 'B', percentage: '20', compounding_strategy: 'full-price' }]);
    expect(full).toMatchObject({
      discount_amount: '30.00',
      discounts: [{ discount_amount: '10.00' }, { eligible_amount: '100.00', discount_amount: '20.00' }],
    });
    // An amount coupon always uses the original price; a compound percentage after it sees the rest.
    expect(get(create(s, sub, [{ code: 'F', amount: '5' }, a]), 'discount_amount')).toBe('14.50');
  });

  it('splits a discount over the lines so the breakouts add up to it exactly', () => {
    const { s, sub } = setup();
    const lines = [custom('A', 1, '0.01'), custom('B', 1, '0.01'), custom('C', 1, '0.01')];
    const invoice = create(s, sub, [{ code: 'HALF', percentage: '50' }], lines);
    expect(get(invoice, 'discount_amount')).toBe('0.02');
    const breakouts = arr(invoice, 'discounts', 0, 'line_item_breakouts');
    expect(breakouts.map((breakout) => get(breakout, 'uid'))).toEqual(
      arr(invoice, 'line_items').map((line) => get(line, 'uid')),
    );
  });
});
