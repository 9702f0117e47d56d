/**
 * Configuration is checked where it is given (issue 25 item 5): `createSite` refuses what it could not
 * run, naming every problem at once, with the same checks `serve --site` prints.
 */
import { describe, expect, it } from 'vitest';
import { checkSiteConfig, createSite, type SiteConfig, SiteConfigError } from '../../../src/index.js';

/** The problems `createSite` throws for a configuration (an unknown key needs a cast from TypeScript). */
function problemsOf(config: unknown): readonly string[] {
  try {
    createSite(config as SiteConfig);
  } catch (error) {
    if (error instanceof SiteConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('createSite checks its configuration', () => {
  it('refuses an unknown time zone, a bad tax rate and an unknown currency, all at once', () => {
    const problems = problemsOf({
      timeZone: 'Mars/Olympus',
      currency: 'XYZ',
      taxes: [
        { name: 'VAT', percentage: '-20' },
        { name: 'Sales', percentage: 'eight' },
      ],
    });
    expect(problems).toEqual([
      'timeZone: must be an IANA time zone',
      'currency: must be an ISO 4217 currency code such as "USD"',
      'taxes[0].percentage: must be a decimal string such as "8.875"',
      'taxes[1].percentage: must be a decimal string such as "8.875"',
    ]);
  });

  it('names a misspelt key rather than ignoring it', () => {
    expect(problemsOf({ timezone: 'UTC' })).toEqual(['Unrecognized key: "timezone"']);
  });

  it('says how many problems there are and what they are in its message', () => {
    expect(() => createSite({ currency: 'dollars' })).toThrow(
      /^The site configuration has 2 problems: currency: must be an ISO 4217 code; currency: must be an ISO 4217 currency code/,
    );
  });

  it('accepts every ISO 4217 code in any case, and a complete configuration', () => {
    for (const currency of ['USD', 'eur', 'JPY', 'KWD']) expect(problemsOf({ currency })).toEqual([]);
    const config: SiteConfig = {
      subdomain: 'acme',
      timeZone: 'Pacific/Apia',
      currency: 'EUR',
      apiKeys: ['key'],
      taxes: [{ name: 'VAT', percentage: '19', country: 'DE' }],
      metrics: [
        { id: 1, name: 'Calls', streamHandle: 'api', aggregation: 'count', segmentProperties: ['region'] },
      ],
      dunning: { retryDays: [1, 3], finalAction: 'unpaid' },
    };
    expect(createSite(config).settings.currency).toBe('EUR');
    expect(checkSiteConfig(config)).toEqual({ ok: true, value: config });
  });
});
