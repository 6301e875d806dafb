import type { CatalogEntity } from '../../contract/index.js';

/**
 * The three kinds of rule assignment; they differ only in names. `IdField` is the name of the
 * entity's id field, so the routes of one kind read their body and path by that name.
 */
export interface AssignmentKind<IdField extends string = string, Name extends string = string> {
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
  bodyName: Name;
}

function kind<const Camel extends string, const Pascal extends string>(
  entity: CatalogEntity,
  segment: string,
  label: string,
  camel: Camel,
  pascal: Pascal,
): AssignmentKind<`${Camel}Id`, `SuitePartialAssortment${Pascal}Rule`> {
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

/** Each kind by itself (its routes are declared per kind, so their operationIds and bodies keep their own names). */
export const CATEGORY_KIND = kind('category', 'category', 'category', 'category', 'Category');
export const LANDING_PAGE_KIND = kind('landing_page', 'landing-page', 'landing page', 'landingPage', 'LandingPage');
export const PRODUCT_KIND = kind('product', 'product', 'product', 'product', 'Product');

export const ASSIGNMENT_KINDS: readonly AssignmentKind[] = [CATEGORY_KIND, LANDING_PAGE_KIND, PRODUCT_KIND];

export const KIND_BY_ENTITY: ReadonlyMap<CatalogEntity, AssignmentKind> = new Map(
  ASSIGNMENT_KINDS.map((k) => [k.entity, k]),
);
