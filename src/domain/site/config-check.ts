/**
 * Checking a `SiteConfig` where it is given: `createSite`, a `serve --site` file, a scenario's `site`.
 * Every field is checked against one schema, every problem is reported at once, and unknown keys are
 * refused, so a misspelt setting is named rather than silently ignored.
 */

import { z } from 'zod';
import { isTimeZone } from '../../kernel/time.js';
import type { SiteConfig } from './config.js';

/** The ISO 4217 codes the runtime knows (`Intl`), uppercase. */
let currencies: ReadonlySet<string> | undefined;
const isCurrency = (code: string): boolean => {
  currencies ??= new Set(Intl.supportedValuesOf('currency'));
  return currencies.has(code.toUpperCase());
};

const text = () => z.string().min(1).max(500);
const nullableText = () => z.string().max(500).nullable();
const decimalText = z.string().regex(/^\d{1,6}(\.\d{1,10})?$/, 'must be a decimal string such as "8.875"');
const creditType = z.enum(['full', 'prorated', 'none']);

const sellerAddress = z.strictObject({
  street: nullableText(),
  line2: nullableText(),
  city: nullableText(),
  state: nullableText(),
  zip: nullableText(),
  country: nullableText(),
});

export const siteConfigSchema = z.strictObject({
  id: z.number().int().min(1).exactOptional(),
  subdomain: text().exactOptional(),
  name: text().exactOptional(),
  timeZone: z.string().refine(isTimeZone, 'must be an IANA time zone').exactOptional(),
  currency: z
    .string()
    .regex(/^[A-Za-z]{3}$/, 'must be an ISO 4217 code')
    .refine(isCurrency, 'must be an ISO 4217 currency code such as "USD"')
    .exactOptional(),
  apiKeys: z.array(text()).exactOptional(),
  serviceName: z
    .string()
    .regex(/^[a-z][a-z0-9_]{0,39}$/, 'must be a lowercase word')
    .exactOptional(),
  taxes: z
    .array(
      z.strictObject({
        name: text(),
        percentage: decimalText,
        country: text().exactOptional(),
        state: text().exactOptional(),
      }),
    )
    .exactOptional(),
  metrics: z
    .array(
      z.strictObject({
        id: z.number().int().min(1),
        name: text(),
        streamHandle: text(),
        aggregation: z.enum(['count', 'sum', 'max', 'unique']),
        property: text().exactOptional(),
        segmentProperties: z.array(text()).max(4).exactOptional(),
      }),
    )
    .exactOptional(),
  externalTaxCalculator: z.boolean().exactOptional(),
  newCatalogExperience: z.boolean().exactOptional(),
  allocationDefaults: z
    .strictObject({
      upgradeCharge: creditType.exactOptional(),
      downgradeCredit: creditType.exactOptional(),
      accrueCharge: z.boolean().exactOptional(),
    })
    .exactOptional(),
  invoiceDefaults: z
    .strictObject({
      memo: z.string().max(10_000).exactOptional(),
      paymentInstructions: z.string().max(10_000).exactOptional(),
      netTerms: z.number().int().min(0).max(365).exactOptional(),
      seller: z
        .strictObject({
          name: text(),
          address: sellerAddress,
          phone: z.string().max(100),
          logoUrl: nullableText(),
        })
        .exactOptional(),
    })
    .exactOptional(),
  invoiceEmails: z.boolean().exactOptional(),
  dunning: z
    .strictObject({
      retryDays: z.array(z.number().int().min(1).max(365)).max(20).exactOptional(),
      finalAction: z.enum(['unpaid', 'canceled']).exactOptional(),
    })
    .exactOptional(),
  portalSecret: text().exactOptional(),
});

/** A checked configuration, or a readable message saying what is wrong. */
export type Checked<T> =
  | {
      /** The value passed every check. */
      readonly ok: true;
      /** The value, as checked. */
      readonly value: T;
    }
  | {
      /** The value failed a check. */
      readonly ok: false;
      /** Every problem as one readable text. */
      readonly error: string;
      /** Every problem, each naming its field (`timeZone: must be an IANA time zone`). */
      readonly problems: readonly string[];
    };

/**
 * Checks a value as a site configuration: the configuration, or every problem found, each naming its
 * field (`taxes[0].percentage: must be a decimal string such as "8.875"`).
 * @example checkSiteConfig({ timeZone: 'Mars/Olympus' }) // { ok: false, problems: ['timeZone: must be an IANA time zone'], ... }
 */
export function checkSiteConfig(value: unknown): Checked<SiteConfig> {
  const parsed = siteConfigSchema.safeParse(value);
  if (parsed.success) {
    const config: SiteConfig = parsed.data;
    return { ok: true, value: config };
  }
  return { ok: false, error: z.prettifyError(parsed.error), problems: problemsOf(parsed.error) };
}

/** Each issue of a zod error as `field.path[0]: message`. */
export function problemsOf(error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const path = issue.path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`));
    const field = path.join('').replace(/^\./, '');
    return field === '' ? issue.message : `${field}: ${issue.message}`;
  });
}

/** What `createSite` throws for a configuration it cannot run a site with; `problems` lists them all. */
export class SiteConfigError extends Error {
  /** Always `SiteConfigError`. */
  override readonly name = 'SiteConfigError';
  constructor(
    /** Every problem of the configuration, each naming its field. */
    readonly problems: readonly string[],
  ) {
    super(
      `The site configuration has ${problems.length === 1 ? 'a problem' : `${problems.length} problems`}: ${problems.join('; ')}`,
    );
  }
}
