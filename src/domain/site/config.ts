/**
 * The site's configuration: what a host passes to `createSite`, and the settings
 * with every default resolved that the engine works from.
 */
import type { Dec } from '../../kernel/money.js';

/** A tax rate the site calculates. A rate with a country (and state) applies only to customers there. */
export interface SiteTaxRate {
  readonly name: string;
  readonly percentage: Dec;
  readonly country?: string;
  readonly state?: string;
}

/** An event-based billing metric over a stream of ingested events. */
export interface SiteMetric {
  readonly id: number;
  readonly name: string;
  readonly streamHandle: string;
  readonly aggregation: 'count' | 'sum' | 'max' | 'unique';
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
  readonly id?: number;
  readonly subdomain?: string;
  readonly name?: string;
  readonly timeZone?: string;
  readonly currency?: string;
  readonly apiKeys?: readonly string[];
  readonly serviceName?: string;
  readonly taxes?: readonly SiteTaxRate[];
  readonly metrics?: readonly SiteMetric[];
  readonly externalTaxCalculator?: boolean;
  readonly newCatalogExperience?: boolean;
  readonly allocationDefaults?: Partial<AllocationDefaults>;
  readonly invoiceDefaults?: Partial<InvoiceDefaults>;
  readonly invoiceEmails?: boolean;
  readonly dunning?: Partial<DunningSettings>;
  /**
   * Secret that signs billing portal links and names generated one-time tokens. Without one the site
   * issues no portal link and generates no token names: the core cannot invent a secret.
   */
  readonly portalSecret?: string;
}

/** The configuration with every default resolved. */
export interface SiteSettings {
  readonly id: number;
  readonly subdomain: string;
  readonly name: string;
  readonly timeZone: string;
  readonly currency: string;
  readonly apiKeys: readonly string[] | null;
  readonly serviceName: string;
  readonly taxes: readonly SiteTaxRate[] | null;
  readonly metrics: readonly SiteMetric[];
  readonly externalTaxCalculator: boolean;
  readonly newCatalogExperience: boolean;
  readonly allocationDefaults: AllocationDefaults;
  readonly invoiceDefaults: InvoiceDefaults;
  readonly invoiceEmails: boolean;
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
