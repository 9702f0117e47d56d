/**
 * Metafields: the custom fields a site defines per resource type, found by name, created, changed and
 * deleted (with every value held in them).
 */
import { definitionProblem, keptChoices } from '../../domain/custom-field/rules.js';
import {
  HIDDEN_SCOPE,
  type InputType,
  MAX_METAFIELDS_PER_RESOURCE_TYPE,
  type Metafield,
  type MetafieldScope,
  type ResourceType,
} from '../../domain/custom-field/types.js';
import { type DomainError, invalid } from '../../domain/errors.js';
import { indexGet } from '../../kernel/collection.js';
import { err, ok, type Result } from '../../kernel/result.js';
import { listed } from '../list-index.js';
import type { Transaction } from '../transaction.js';
import { removeValue } from './values.js';

/** What a request says of a metafield: every part optional except where the operation needs it. */
export interface MetafieldInput {
  readonly name?: string | undefined;
  readonly inputType?: InputType | undefined;
  readonly enumValues?: readonly string[] | undefined;
  readonly scope?: Partial<MetafieldScope> | undefined;
}

/**
 * The metafields written in one request, by name, beside those the state held when it began (the
 * state's name index does not see the request's own writes).
 */
export class FieldNames {
  readonly #written = new Map<string, Metafield | null>();

  constructor(
    private readonly tx: Transaction,
    readonly resourceType: ResourceType,
  ) {}

  /** The metafield of that name, as this request has left it. */
  get(name: string): Metafield | undefined {
    const written = this.#written.get(name);
    if (written !== undefined) return written ?? undefined;
    const id = indexGet(this.tx.state.indexes.metafieldNames, `${this.resourceType}/${name}`);
    return id === undefined ? undefined : this.tx.get('metafields', id);
  }

  /** Notes a metafield written (and, renamed, that its old name is free). */
  wrote(field: Metafield, previousName?: string): void {
    if (previousName !== undefined && previousName !== field.name) this.#written.set(previousName, null);
    this.#written.set(field.name, field);
  }

  /** Notes that a name is free. */
  freed(name: string): void {
    this.#written.set(name, null);
  }
}

/** The ids of a resource type's metafields in the stored state, in id order. */
export const metafieldIds = (tx: Transaction, resourceType: ResourceType): readonly number[] =>
  listed(tx.state.listIndexes, 'resourceTypeMetafields', resourceType);

const taken = (name: string): DomainError =>
  invalid('name_taken', `Name: "${name}" has already been taken.`, 'name');

/** A scope with the given parts and the others hidden: a scope sent replaces the one kept whole. */
export const scopeOf = (given: Partial<MetafieldScope>): MetafieldScope => ({ ...HIDDEN_SCOPE, ...given });

/**
 * Creates a metafield, refusing a taken name, a radio or dropdown field without choices, or one more
 * field than a resource type may have (`count`: how many it has, this request's included).
 */
export function createMetafield(
  tx: Transaction,
  names: FieldNames,
  input: MetafieldInput & { readonly name: string },
  count: number,
): Result<Metafield, DomainError> {
  if (names.get(input.name) !== undefined) return err(taken(input.name));
  if (count >= MAX_METAFIELDS_PER_RESOURCE_TYPE)
    return err(
      invalid(
        'too_many_metafields',
        `A site can have at most ${MAX_METAFIELDS_PER_RESOURCE_TYPE} metafields for ${names.resourceType}.`,
        'base',
      ),
    );
  const inputType = input.inputType ?? 'text';
  const enumValues = keptChoices(inputType, input.enumValues ?? []);
  const problem = definitionProblem(input.name, inputType, enumValues);
  if (problem !== undefined) return err(problem);
  const field = tx.put('metafields', {
    id: tx.nextId('metafields'),
    resourceType: names.resourceType,
    name: input.name,
    inputType,
    enumValues,
    scope: scopeOf(input.scope ?? {}),
    dataCount: 0,
    createdAt: tx.now,
    updatedAt: tx.now,
  });
  names.wrote(field);
  return ok(field);
}

/**
 * Changes a metafield: a new name (not taken), input type, choices or scope. Values already held keep
 * their text even when new choices leave them out; only values written later must be among the choices.
 */
export function updateMetafield(
  tx: Transaction,
  names: FieldNames,
  field: Metafield,
  input: MetafieldInput,
): Result<Metafield, DomainError> {
  const name = input.name ?? field.name;
  if (name !== field.name && names.get(name) !== undefined) return err(taken(name));
  const inputType = input.inputType ?? field.inputType;
  const enumValues = keptChoices(inputType, input.enumValues ?? field.enumValues);
  const problem = definitionProblem(name, inputType, enumValues);
  if (problem !== undefined) return err(problem);
  const updated = tx.put('metafields', {
    ...field,
    name,
    inputType,
    enumValues,
    scope: input.scope === undefined ? field.scope : scopeOf(input.scope),
    updatedAt: tx.now,
  });
  names.wrote(updated, field.name);
  return ok(updated);
}

/** Deletes a metafield and every value held in it, each removal of a value recorded. */
export function deleteMetafield(tx: Transaction, names: FieldNames, field: Metafield): void {
  for (const id of listed(tx.state.listIndexes, 'metafieldMetadata', field.id)) {
    const row = tx.get('metadata', id);
    if (row === undefined) continue;
    if (row.deletedAt === null) removeValue(tx, row);
    tx.remove('metadata', id);
  }
  tx.remove('metafields', field.id);
  names.freed(field.name);
}
