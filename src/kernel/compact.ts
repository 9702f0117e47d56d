/**
 * Keeping the values a site holds once per row small in memory, with no change to what they are: a
 * site of a million subscriptions holds millions of them.
 */

/**
 * The empty array rows share (a new invoice's payments, credits and history, a subscription's coupon
 * codes): each `[]` is an object of its own, and a row holds several. Frozen, as all state is.
 */
export const NONE: readonly never[] = Object.freeze([]);

/** Texts shorter than this are flat already: V8 joins shorter ones by copying. */
const SHORTEST_JOINED = 13;

/**
 * `text` as one flat string. A template literal of 13 characters or more is a tree of its parts (a
 * message of a customer's name and a few words is four or five nodes of 32 bytes); joining an array
 * copies the characters into one string, and the parts can go.
 * @example flatText(`Invoice ${1} issued`) // 'Invoice 1 issued'
 */
export const flatText = (text: string): string =>
  text.length < SHORTEST_JOINED ? text : [text.slice(0, 1), text.slice(1)].join('');
