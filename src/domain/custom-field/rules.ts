/** The rules a custom field's name and values follow. */
import { type DomainError, invalid } from '../errors.js';
import { type InputType, MAX_VALUE_BYTES, type Metafield } from './types.js';

/**
 * The size of a text in UTF-8 bytes, counted without an encoder (the core uses no platform API).
 * @example utf8Length('é') // 2
 */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  }
  return bytes;
}

/** Whether a field of this input type takes its values from a list. */
export const hasChoices = (inputType: InputType): boolean =>
  inputType === 'radio' || inputType === 'dropdown';

/**
 * The choices a field keeps from those given: none unless it is a radio or dropdown field, and without
 * blanks or repeats (the official API drops empty strings).
 * @example keptChoices('radio', ['a', '', 'a', 'b']) // ['a', 'b']
 */
export function keptChoices(inputType: InputType, given: readonly string[]): readonly string[] {
  if (!hasChoices(inputType)) return [];
  return [...new Set(given.filter((choice) => choice.trim().length > 0))];
}

/**
 * Why a field's definition cannot stand, if it cannot: a radio or dropdown field needs choices.
 * @example definitionProblem('radio', []) // a 422 error
 */
export function definitionProblem(name: string, inputType: InputType, choices: readonly string[]) {
  if (hasChoices(inputType) && choices.length === 0)
    return invalid('enum_required', `${name}: a ${inputType} field needs at least one enum value.`, 'enum');
  return undefined;
}

/**
 * Why `value` cannot be held in `field`, if it cannot: too large, or not one of a radio or dropdown
 * field's choices.
 * @example valueProblem(field, 'x'.repeat(3000)) // a 422 error
 */
export function valueProblem(field: Metafield, value: string): DomainError | undefined {
  if (utf8Length(value) > MAX_VALUE_BYTES)
    return invalid(
      'value_too_large',
      `${field.name}: value is larger than ${MAX_VALUE_BYTES} bytes.`,
      'value',
    );
  if (hasChoices(field.inputType) && !field.enumValues.includes(value))
    return invalid(
      'value_not_allowed',
      `${field.name}: "${value}" is not one of the field's values (${field.enumValues.join(', ')}).`,
      'value',
    );
  return undefined;
}
