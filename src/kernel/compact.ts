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

/** The last text `flatText` was given, and what it gave back. */
let lastText = '';
let lastFlat = '';

/**
 * `text` as one flat string. A template literal of 13 characters or more is a tree of its parts (a
 * message of a customer's name and a few words is four or five nodes of 32 bytes); joining an array
 * copies the characters into one string, and the parts can go.
 * @example flatText(`Invoice ${1} issued`) // 'Invoice 1 issued'
 */
export function flatText(text: string): string {
  if (text.length < SHORTEST_JOINED) return text;
  // The lines of one invoice often share a text (a period's "first - last" dates on every component):
  // the same text twice in a row is the same string, kept once.
  if (text === lastText) return lastFlat;
  lastText = text;
  lastFlat = [text.slice(0, 1), text.slice(1)].join('');
  return lastFlat;
}
