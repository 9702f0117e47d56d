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
  readonly id: number;
  readonly token: string;
  readonly firstName: string;
  readonly lastName: string;
  readonly lastFour: string;
  readonly cardType: CardType;
  readonly expirationMonth: number;
  readonly expirationYear: number;
  readonly billingAddress: string;
  readonly billingAddress2: string;
  readonly billingCity: string;
  readonly billingState: string;
  readonly billingZip: string;
  readonly billingCountry: string;
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
