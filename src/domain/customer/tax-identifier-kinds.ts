/**
 * The kinds of customer tax identifier, the countries each accepts and the value formats checked.
 * Source: the official API's customer fields and the newer SDK's `EntityIdentifierKind`.
 */

/**
 * The identifier kinds, as the API spells them. A French SIREN has no kind of its own: the sources name
 * it only as an example of `company_reg`.
 */
export const ENTITY_IDENTIFIER_KINDS = [
  'vat_eu',
  'national_tax',
  'company_reg',
  'gln',
  'duns',
  'lei',
] as const;

/** The kind of tax or business identifier a customer holds. */
export type EntityIdentifierKind = (typeof ENTITY_IDENTIFIER_KINDS)[number];

/**
 * Whether a string names a supported identifier kind.
 * @example isEntityIdentifierKind('gln') // true
 * @example isEntityIdentifierKind('siren') // false
 */
export const isEntityIdentifierKind = (value: string): value is EntityIdentifierKind =>
  (ENTITY_IDENTIFIER_KINDS as readonly string[]).includes(value);

/**
 * Countries an EU VAT number may be qualified by: the 27 member states (ISO 3166-1), GB, and `EL`, the
 * code the EU itself uses for Greece in VAT numbers, so a customer who types the VAT prefix is not turned
 * into `company_reg`.
 */
export const EU_VAT_COUNTRIES: ReadonlySet<string> = new Set(
  'AT BE BG CY CZ DE DK EE ES FI FR GR HR HU IE IT LT LU LV MT NL PL PT RO SE SI SK GB EL'.split(' '),
);

/** Countries whose national tax id the `national_tax` kind holds. */
export const NATIONAL_TAX_COUNTRIES: ReadonlySet<string> = new Set(
  'AL AM AR AU BR CA CH DZ IN MX NO NZ ZA'.split(' '),
);

/**
 * The kind a legacy `vat_number` gets from its `vat_country`: an EU member state or GB
 * gives `vat_eu`, a national tax country `national_tax`, anything else (blank included) `company_reg`.
 * @example kindForVatCountry('DE') // 'vat_eu'
 * @example kindForVatCountry('CA') // 'national_tax'
 * @example kindForVatCountry(null) // 'company_reg'
 */
export function kindForVatCountry(country: string | null): EntityIdentifierKind {
  if (country !== null && EU_VAT_COUNTRIES.has(country)) return 'vat_eu';
  if (country !== null && NATIONAL_TAX_COUNTRIES.has(country)) return 'national_tax';
  return 'company_reg';
}

/** The countries a kind requires, or undefined when the kind needs no country and accepts any. */
const REQUIRED_COUNTRIES: Readonly<Partial<Record<EntityIdentifierKind, ReadonlySet<string>>>> = {
  vat_eu: EU_VAT_COUNTRIES,
  national_tax: NATIONAL_TAX_COUNTRIES,
};

/** Why a vat_country does not suit a kind. */
export type CountryProblem = 'missing' | 'not_allowed';

/**
 * Whether a kind may be held with a vat_country: `vat_eu` and `national_tax` need one from their list;
 * the other kinds take any country or none.
 * @example countryProblem('vat_eu', 'US') // 'not_allowed'
 * @example countryProblem('national_tax', null) // 'missing'
 * @example countryProblem('gln', null) // undefined
 */
export function countryProblem(
  kind: EntityIdentifierKind,
  country: string | null,
): CountryProblem | undefined {
  const allowed = REQUIRED_COUNTRIES[kind];
  if (allowed === undefined) return undefined;
  if (country === null) return 'missing';
  return allowed.has(country) ? undefined : 'not_allowed';
}

/**
 * The formats checked, with how to describe them. Only the shape is checked: no source says check digits
 * (GS1 mod 10, ISO 7064) are verified, so a well-formed number with a wrong check digit is accepted.
 */
const VALUE_FORMATS: Readonly<
  Partial<Record<EntityIdentifierKind, { pattern: RegExp; description: string }>>
> = {
  gln: { pattern: /^\d{13}$/, description: '13 digits' },
  duns: { pattern: /^\d{9}$/, description: '9 digits' },
  lei: { pattern: /^[A-Z0-9]{18}\d{2}$/, description: '20 characters: 18 letters or digits, then 2 digits' },
};

/**
 * The expected format when a (trimmed, upper-cased) value does not match its kind's; undefined when it
 * does or the kind has no fixed format.
 * @example formatProblem('duns', '12345678') // '9 digits'
 * @example formatProblem('duns', '123456789') // undefined
 */
export function formatProblem(kind: EntityIdentifierKind, value: string): string | undefined {
  const format = VALUE_FORMATS[kind];
  return format === undefined || format.pattern.test(value) ? undefined : format.description;
}
