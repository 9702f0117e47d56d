/** One-time tokens: card data a site holds under an opaque token. */

/** The card types the official client accepts (its `CardType` enumeration). */
export const CARD_TYPES = [
  'visa',
  'master',
  'elo',
  'cabal',
  'alelo',
  'discover',
  'american_express',
  'naranja',
  'diners_club',
  'jcb',
  'dankort',
  'maestro',
  'maestro_no_luhn',
  'forbrugsforeningen',
  'sodexo',
  'alia',
  'vr',
  'unionpay',
  'carnet',
  'cartes_bancaires',
  'olimpica',
  'creditel',
  'confiable',
  'synchrony',
  'routex',
  'mada',
  'bp_plus',
  'passcard',
  'edenred',
  'anda',
  'tarjeta-d',
  'hipercard',
  'bogus',
  'switch',
  'solo',
  'laser',
] as const;

export type CardType = (typeof CARD_TYPES)[number];

/**
 * A token and the card it stands for. The full card number is never kept: only its last four digits
 * (which is also all the test gateway decides by).
 */
export interface OneTimeToken {
  /** The token's row id. */
  readonly id: number;
  /** The token's name, as requests send it. */
  readonly token: string;
  /** The cardholder's first name. */
  readonly firstName: string;
  /** The cardholder's last name. */
  readonly lastName: string;
  /** The card number's last four digits. */
  readonly lastFour: string;
  /** The card's brand. */
  readonly cardType: CardType;
  /** The expiration month. */
  readonly expirationMonth: number;
  /** The expiration year. */
  readonly expirationYear: number;
  /** The billing address's first line ("" when not given). */
  readonly billingAddress: string;
  /** Its second line ("" when not given). */
  readonly billingAddress2: string;
  /** Its city ("" when not given). */
  readonly billingCity: string;
  /** Its state or province ("" when not given). */
  readonly billingState: string;
  /** Its postal code ("" when not given). */
  readonly billingZip: string;
  /** Its country ("" when not given). */
  readonly billingCountry: string;
  /** The card's token in the test vault. */
  readonly vaultToken: string;
}

/** What registering a token takes (the card number in full; it is reduced to its last four digits). */
export interface OneTimeTokenFields {
  readonly token: string;
  readonly firstName: string;
  readonly lastName: string;
  readonly fullNumber: string;
  readonly expirationMonth: number;
  readonly expirationYear: number;
  readonly cardType?: string | undefined;
  readonly billingAddress?: string | undefined;
  readonly billingAddress2?: string | undefined;
  readonly billingCity?: string | undefined;
  readonly billingState?: string | undefined;
  readonly billingZip?: string | undefined;
  readonly billingCountry?: string | undefined;
}
