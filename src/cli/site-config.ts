/**
 * Reading a `SiteConfig` from JSON (a `--site` file or a scenario's `site`): every field is checked
 * here, because the engine trusts the configuration its host gives it. Unknown keys are refused, so a
 * misspelt setting is reported rather than silently ignored.
 */

import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import type { SiteConfig } from '../domain/site/config.js';
import { isTimeZone } from '../kernel/time.js';

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
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: string };

/** Checks a parsed JSON value as a site configuration. */
export function parseSiteConfig(value: unknown): Checked<SiteConfig> {
  const parsed = siteConfigSchema.safeParse(value);
  if (!parsed.success) return { ok: false, error: z.prettifyError(parsed.error) };
  const config: SiteConfig = parsed.data;
  return { ok: true, value: config };
}

/** Reads and checks a site configuration file. */
export async function readSiteConfig(path: string): Promise<Checked<SiteConfig>> {
  let source: string;
  try {
    source = await readFile(path, 'utf8');
  } catch (error) {
    return { ok: false, error: `cannot read ${path}: ${error instanceof Error ? error.message : 'error'}` };
  }
  let json: unknown;
  try {
    json = JSON.parse(source);
  } catch {
    return { ok: false, error: `${path} is not valid JSON` };
  }
  const checked = parseSiteConfig(json);
  return checked.ok ? checked : { ok: false, error: `${path}: ${checked.error}` };
}
