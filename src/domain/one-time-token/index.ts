/** One-time tokens: card data registered under a token, read back as a payment profile. */
export { buildOneTimeToken, cardTypeOfNumber, generatedToken, isTokenText } from './build.js';
export { CARD_TYPES, type CardType, type OneTimeToken, type OneTimeTokenFields } from './types.js';
