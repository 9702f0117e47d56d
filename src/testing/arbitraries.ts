/**
 * fast-check arbitraries for the engine's inputs. fast-check is an optional peer dependency, used only
 * by this subpath.
 */
import fc from 'fast-check';
import type { SiteConfig } from '../domain/site/config.js';

const zones = [
  'UTC',
  'America/New_York',
  'Europe/Paris',
  'Asia/Kolkata',
  'Pacific/Apia',
  'Australia/Lord_Howe',
];

/** A decimal string with up to `scale` places, between 0 and `max`. */
export const decimalString = (max = 10_000, scale = 2): fc.Arbitrary<string> =>
  fc.integer({ min: 0, max: max * 10 ** scale }).map((units) => {
    const text = String(units).padStart(scale + 1, '0');
    return scale === 0 ? text : `${text.slice(0, -scale)}.${text.slice(-scale)}`;
  });

/**
 * Site configurations: zone, currency, taxes.
 * @example fc.assert(fc.property(siteConfigArbitrary(), (config) => createSite(config).settings.currency.length === 3))
 */
export const siteConfigArbitrary = (): fc.Arbitrary<SiteConfig> =>
  fc.record({
    timeZone: fc.constantFrom(...zones),
    currency: fc.constantFrom('USD', 'EUR', 'JPY', 'KWD'),
    taxes: fc.array(
      fc.record({ name: fc.constantFrom('State', 'City', 'VAT'), percentage: decimalString(30, 3) }),
      { maxLength: 2 },
    ),
  });

/** A custom line item of an ad hoc invoice request, as the API takes it. */
export interface CustomLineRequest {
  /** What the line is called on the invoice (not blank). */
  readonly title: string;
  /** How many, as a decimal string (up to 4 places). */
  readonly quantity: string;
  /** The price of one, as a decimal string (up to 4 places). */
  readonly unit_price: string;
  /** Whether the site's taxes apply to it. */
  readonly taxable: boolean;
}

/** A percentage coupon of an ad hoc invoice request. */
export interface PercentageCouponRequest {
  /** The code the invoice shows for it. */
  readonly code: string;
  /** The percentage off, 0 to 100, as a decimal string. */
  readonly percentage: string;
  /** Whether it applies after earlier coupons (`compound`) or to the full price (`full-price`). */
  readonly compounding_strategy: 'compound' | 'full-price';
}

/** A flat amount coupon of an ad hoc invoice request. */
export interface AmountCouponRequest {
  /** The code the invoice shows for it. */
  readonly code: string;
  /** The amount off, as a decimal string. */
  readonly amount: string;
}

/** The body of an ad hoc invoice request. */
export interface InvoiceRequestBody {
  /** The invoice to issue. */
  readonly invoice: {
    /** Its custom line items, at least one. */
    readonly line_items: readonly CustomLineRequest[];
    /** Its ad hoc coupons, in the order they apply. */
    readonly coupons: readonly (PercentageCouponRequest | AmountCouponRequest)[];
  };
}

/**
 * One line item of an ad hoc invoice request (a custom item): a non-blank `title`, a `quantity` (up to
 * 1000, 4 decimals) and a `unit_price` (up to 10,000, 4 decimals) as decimal strings, and `taxable`.
 */
export const customLineArbitrary = (): fc.Arbitrary<CustomLineRequest> =>
  fc.record({
    title: fc.string({ minLength: 1, maxLength: 20 }).filter((title) => title.trim().length > 0),
    quantity: decimalString(1000, 4),
    unit_price: decimalString(10_000, 4),
    taxable: fc.boolean(),
  });

/**
 * An ad hoc coupon of an invoice request: a `code` with a `percentage` (0 to 100, 4 decimals) and a
 * `compounding_strategy` (`compound` or `full-price`), or a `code` with an `amount` (up to 500).
 */
export const adHocCouponArbitrary = (): fc.Arbitrary<PercentageCouponRequest | AmountCouponRequest> =>
  fc.oneof(
    fc.record({
      code: fc.constantFrom('PCT', 'OFF', 'SAVE'),
      percentage: decimalString(100, 4),
      compounding_strategy: fc.constantFrom('compound', 'full-price'),
    }),
    fc.record({ code: fc.constantFrom('AMT', 'FLAT'), amount: decimalString(500, 2) }),
  );

/**
 * The body of `POST /subscriptions/{id}/invoices.json`: an `invoice` with 1 to 12 `line_items`
 * (`customLineArbitrary`) and up to 3 `coupons` (`adHocCouponArbitrary`).
 * @example fc.sample(invoiceRequestArbitrary(), 1)[0].invoice.line_items.length >= 1
 */
export const invoiceRequestArbitrary = (): fc.Arbitrary<InvoiceRequestBody> =>
  fc.record({
    invoice: fc.record({
      line_items: fc.array(customLineArbitrary(), { minLength: 1, maxLength: 12 }),
      coupons: fc.array(adHocCouponArbitrary(), { maxLength: 3 }),
    }),
  });
