import type { CatalogEntity } from '../../host/contract.js';

/**
 * The three kinds of rule assignment; they differ only in names. `IdField` is the name of the
 * entity's id field, so the routes of one kind read their body and path by that name.
 */
export interface AssignmentKind<IdField extends string = string> {
  entity: CatalogEntity;
  /** 'category' | 'landing-page' | 'product', the path segment of the routes */
  segment: string;
  /** For messages and summaries: 'category', 'landing page', 'product'. */
  label: string;
  /** Field of the POST body and the list attributes, also the DELETE path variable. */
  idField: IdField;
  versionField: string;
  table: string;
  entityColumn: string;
  versionColumn: string;
  /** JSON:API `type` of the listed elements. */
  type: string;
  /** Name of the documented POST request body; also the stem of the operation ids. */
  bodyName: string;
}

function kind(entity: CatalogEntity, segment: string, label: string, camel: string, pascal: string): AssignmentKind {
  const snake = entity;
  return {
    entity,
    segment,
    label,
    idField: `${camel}Id`,
    versionField: `${camel}VersionId`,
    table: `suite_partial_assortment_${snake}_rule`,
    entityColumn: `${snake}_id`,
    versionColumn: `${snake}_version_id`,
    type: `suite_partial_assortment_${snake}_rule`,
    bodyName: `SuitePartialAssortment${pascal}Rule`,
  };
}

export const ASSIGNMENT_KINDS: readonly AssignmentKind[] = [
  kind('category', 'category', 'category', 'category', 'Category'),
  kind('landing_page', 'landing-page', 'landing page', 'landingPage', 'LandingPage'),
  kind('product', 'product', 'product', 'product', 'Product'),
];

export const KIND_BY_ENTITY: ReadonlyMap<CatalogEntity, AssignmentKind> = new Map(
  ASSIGNMENT_KINDS.map((k) => [k.entity, k]),
);
