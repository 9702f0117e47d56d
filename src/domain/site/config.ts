/**
 * The site's configuration: what a host passes to `createSite`, and the settings
 * with every default resolved that the engine works from.
 */
import type { Dec } from '../../kernel/money.js';

/** A tax rate the site calculates. A rate with a country (and state) applies only to customers there. */
export interface SiteTaxRate {
  /** The tax's name, as invoices show it. */
  readonly name: string;
  /** The rate in percent, as a decimal string ("8.875"). */
  readonly percentage: Dec;
  /** The country (ISO 3166-1 alpha-2) whose customers it applies to; every country when absent. */
  readonly country?: string;
  /** The state or province within `country` it applies to; every one when absent. */
  readonly state?: string;
}

/** An event-based billing metric over a stream of ingested events. */
export interface SiteMetric {
  /** The metric's id, which an event-based component names. */
  readonly id: number;
  /** Its name. */
  readonly name: string;
  /** The stream whose events it reads (`POST /events/{streamHandle}/bulk.json`). */
  readonly streamHandle: string;
  /**
   * How a period's events become a quantity: their `count`, the `sum` or `max` of `property`, or the number
   * of `unique` values of `property`.
   */
  readonly aggregation: 'count' | 'sum' | 'max' | 'unique';
  /** The event property `sum`, `max` and `unique` read; may be a dotted path (`load.peak`). */
  readonly property?: string;
  /**
   * The event properties whose values select a segment, in slot order: the first is matched against
   * `segment_property_1_value`, and so on (at most four). Absent: the metric's usage is not segmented.
   */
  readonly segmentProperties?: readonly string[];
}

/** How a proration or credit is charged: in full, prorated over the period left, or not at all. */
export type CreditType = 'full' | 'prorated' | 'none';

export interface AllocationDefaults {
  readonly upgradeCharge: CreditType;
  readonly downgradeCredit: CreditType;
  readonly accrueCharge: boolean;
}

export interface SellerAddress {
  readonly street: string | null;
  readonly line2: string | null;
  readonly city: string | null;
  readonly state: string | null;
  readonly zip: string | null;
  readonly country: string | null;
}

export interface InvoiceDefaults {
  readonly memo: string;
  readonly paymentInstructions: string;
  readonly netTerms: number;
  readonly seller: {
    readonly name: string;
    readonly address: SellerAddress;
    readonly phone: string;
    readonly logoUrl: string | null;
  };
}

export interface DunningSettings {
  /** Days after a failed renewal at which payment is retried, in order. */
  readonly retryDays: readonly number[];
  /** What happens when the retries are exhausted. */
  readonly finalAction: 'unpaid' | 'canceled';
}

/** What a host passes to `createSite`; every field optional. */
export interface SiteConfig {
  /** The site's id. Default 1. */
  readonly id?: number;
  /** The site's subdomain, in public URLs and idempotency keys. Default `acme`. */
  readonly subdomain?: string;
  /** The site's name, in emails and as the default seller. Default `Acme`. */
  readonly name?: string;
  /** The IANA time zone billing days and periods are counted in. Default `UTC`. */
  readonly timeZone?: string;
  /** The ISO 4217 currency of every amount. Default `USD`. */
  readonly currency?: string;
  /**
   * The API keys a request must give (HTTP Basic `KEY:x`); without any, no credentials are asked for. Default
   * none.
   */
  readonly apiKeys?: readonly string[];
  /**
   * The name of the service the API imitates: ids are presented as `{serviceName}_id` and bulk events name
   * their subscription under it. Default `svc`.
   */
  readonly serviceName?: string;
  /** The tax rates the site calculates. Default none: no tax is calculated. */
  readonly taxes?: readonly SiteTaxRate[];
  /** The event-based billing metrics event-based components bill. Default none. */
  readonly metrics?: readonly SiteMetric[];
  /** The official site setting of that name, kept and shown; it changes no calculation. Default false. */
  readonly externalTaxCalculator?: boolean;
  /**
   * The official API's new catalog experience: three event keys renamed, allocation messages telling the
   * payment's outcome, and a tax code required on a taxable component. Default false.
   */
  readonly newCatalogExperience?: boolean;
  /**
   * The site's allocation settings, used where neither the allocation, the component nor the call sets one.
   * Default: increases prorated, decreases not credited, charges collected at once.
   */
  readonly allocationDefaults?: Partial<AllocationDefaults>;
  /**
   * What invoices show when a request does not say: memo and payment instructions (default empty), net terms
   * (default 0 days) and the seller (default the site's name, no address).
   */
  readonly invoiceDefaults?: Partial<InvoiceDefaults>;
  /** Whether issuing an invoice records an email to the customer. Default true. */
  readonly invoiceEmails?: boolean;
  /**
   * Dunning after a failed renewal payment: the retry days (default 3, 7 and 14 days after the failure) and
   * the final action (default `canceled`).
   */
  readonly dunning?: Partial<DunningSettings>;
  /**
   * Secret that signs billing portal links and names generated one-time tokens. Without one the site
   * issues no portal link and generates no token names: the core cannot invent a secret.
   */
  readonly portalSecret?: string;
}

/** The configuration with every default resolved. */
export interface SiteSettings {
  /** The site's id. */
  readonly id: number;
  /** The site's subdomain. */
  readonly subdomain: string;
  /** The site's name. */
  readonly name: string;
  /** The IANA time zone billing days and periods are counted in. */
  readonly timeZone: string;
  /** The currency of every amount, upper-case. */
  readonly currency: string;
  /** The API keys a request must give, or null when none is required. */
  readonly apiKeys: readonly string[] | null;
  /** The name of the service the API imitates. */
  readonly serviceName: string;
  /** The tax rates the site calculates, or null when it calculates none. */
  readonly taxes: readonly SiteTaxRate[] | null;
  /** The event-based billing metrics. */
  readonly metrics: readonly SiteMetric[];
  /** The official site setting of that name; it changes no calculation. */
  readonly externalTaxCalculator: boolean;
  /** Whether the site has the official API's new catalog experience. */
  readonly newCatalogExperience: boolean;
  /** The site's allocation settings. */
  readonly allocationDefaults: AllocationDefaults;
  /** What invoices show when a request does not say. */
  readonly invoiceDefaults: InvoiceDefaults;
  /** Whether issuing an invoice records an email to the customer. */
  readonly invoiceEmails: boolean;
  /** Dunning after a failed renewal payment. */
  readonly dunning: DunningSettings;
  /** Null when the host configured none (no portal links, no generated token names). */
  readonly portalSecret: string | null;
}

const EMPTY_ADDRESS: SellerAddress = {
  street: null,
  line2: null,
  city: null,
  state: null,
  zip: null,
  country: null,
};

/**
 * Resolves a configuration's defaults. Validation of the values is the caller's.
 * @example resolveSettings({ timeZone: 'Europe/Paris' }).currency // 'USD'
 */
export function resolveSettings(config: SiteConfig = {}): SiteSettings {
  const name = config.name ?? 'Acme';
  return {
    id: config.id ?? 1,
    subdomain: config.subdomain ?? 'acme',
    name,
    timeZone: config.timeZone ?? 'UTC',
    currency: (config.currency ?? 'USD').toUpperCase(),
    apiKeys: config.apiKeys && config.apiKeys.length > 0 ? [...config.apiKeys] : null,
    serviceName: config.serviceName ?? 'svc',
    taxes: config.taxes ? config.taxes.map((tax) => ({ ...tax })) : null,
    metrics: config.metrics ? config.metrics.map((metric) => ({ ...metric })) : [],
    externalTaxCalculator: config.externalTaxCalculator ?? false,
    newCatalogExperience: config.newCatalogExperience ?? false,
    allocationDefaults: {
      upgradeCharge: config.allocationDefaults?.upgradeCharge ?? 'prorated',
      downgradeCredit: config.allocationDefaults?.downgradeCredit ?? 'none',
      accrueCharge: config.allocationDefaults?.accrueCharge ?? false,
    },
    invoiceDefaults: {
      memo: config.invoiceDefaults?.memo ?? '',
      paymentInstructions: config.invoiceDefaults?.paymentInstructions ?? '',
      netTerms: config.invoiceDefaults?.netTerms ?? 0,
      seller: config.invoiceDefaults?.seller ?? { name, address: EMPTY_ADDRESS, phone: '', logoUrl: null },
    },
    invoiceEmails: config.invoiceEmails ?? true,
    dunning: {
      retryDays: config.dunning?.retryDays ? [...config.dunning.retryDays] : [3, 7, 14],
      finalAction: config.dunning?.finalAction ?? 'canceled',
    },
    portalSecret:
      config.portalSecret !== undefined && config.portalSecret.length > 0 ? config.portalSecret : null,
  };
}
