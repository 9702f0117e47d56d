/** The wire forms of metafields and metadata, and of their paged lists. */
import { hasChoices } from '../../domain/custom-field/rules.js';
import type { Metadatum, Metafield } from '../../domain/custom-field/types.js';
import type { SiteState } from '../../engine/state.js';
import { tableGet } from '../../kernel/collection.js';
import { stamp } from '../common.js';

/** The wire form of a metafield. */
export const presentMetafield = (field: Metafield) => ({
  id: field.id,
  name: field.name,
  scope: {
    csv: field.scope.csv,
    invoices: field.scope.invoices,
    statements: field.scope.statements,
    portal: field.scope.portal,
    public_show: field.scope.publicShow,
    public_edit: field.scope.publicEdit,
    hosted: [...field.scope.hosted],
  },
  data_count: field.dataCount,
  input_type: field.inputType,
  enum: hasChoices(field.inputType) ? [...field.enumValues] : null,
});

/** The wire form of a value, named by its metafield as the state after the request has it. */
export const presentMetadatum = (state: SiteState, row: Metadatum) => ({
  id: row.id,
  value: row.value,
  resource_id: row.resourceId,
  name: tableGet(state.tables.metafields, row.metafieldId)?.name ?? '',
  deleted_at: stamp(state, row.deletedAt),
  metafield_id: row.metafieldId,
});

/** The paging figures every custom field listing carries. */
export const pageFigures = (total: number, page: number, perPage: number) => ({
  total_count: total,
  current_page: page,
  total_pages: Math.ceil(total / perPage),
  per_page: perPage,
});
