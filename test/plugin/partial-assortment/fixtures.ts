import { newId } from '../../../src/lib/ids.js';
import { writeJson } from '../../../src/lib/db.js';
import { nowDb } from '../../../src/lib/time.js';
import { adminToken, getShop, http } from '../../helpers/shop.js';

/** The three kinds as a client sees them: route segment, body/attribute names, JSON:API type, table. */
export const KINDS = [
  {
    segment: 'category',
    idField: 'categoryId',
    versionField: 'categoryVersionId',
    type: 'suite_partial_assortment_category_rule',
    bodyName: 'SuitePartialAssortmentCategoryRule',
    table: 'suite_partial_assortment_category_rule',
    column: 'category_id',
    create: () => createCategory(),
  },
  {
    segment: 'landing-page',
    idField: 'landingPageId',
    versionField: 'landingPageVersionId',
    type: 'suite_partial_assortment_landing_page_rule',
    bodyName: 'SuitePartialAssortmentLandingPageRule',
    table: 'suite_partial_assortment_landing_page_rule',
    column: 'landing_page_id',
    create: () => createLandingPage(),
  },
  {
    segment: 'product',
    idField: 'productId',
    versionField: 'productVersionId',
    type: 'suite_partial_assortment_product_rule',
    bodyName: 'SuitePartialAssortmentProductRule',
    table: 'suite_partial_assortment_product_rule',
    column: 'product_id',
    create: () => createProduct(),
  },
] as const;

export type Kind = (typeof KINDS)[number];

export const routeOf = (kind: Kind) => `/api/suite-partial-assortment-${kind.segment}-rule`;

export interface Entity {
  id: string;
  versionId: string;
}

export async function createCategory(
  parentId: string | null = null,
  name = `Category ${newId().slice(0, 6)}`,
): Promise<Entity> {
  const shop = await getShop();
  const entity = { id: newId(), versionId: newId() };
  await shop.db('categories').insert({
    id: entity.id,
    version_id: entity.versionId,
    parent_id: parentId,
    name,
    position: 0,
    active: true,
    created_at: nowDb(),
  });
  return entity;
}

export async function createLandingPage(name = `Landing ${newId().slice(0, 6)}`): Promise<Entity> {
  const shop = await getShop();
  const entity = { id: newId(), versionId: newId() };
  await shop.db('landing_pages').insert({
    id: entity.id,
    version_id: entity.versionId,
    name,
    url: `/landing/${entity.id}`,
    active: true,
    created_at: nowDb(),
  });
  return entity;
}

export async function createProduct(
  name = `Product ${newId().slice(0, 6)}`,
  categoryIds: string[] = [],
): Promise<Entity> {
  const shop = await getShop();
  const entity = { id: newId(), versionId: newId() };
  await shop.db('products').insert({
    id: entity.id,
    version_id: entity.versionId,
    product_number: `PA-${entity.id.slice(0, 12)}`,
    name,
    description: null,
    stock: 100,
    active: true,
    tax_rate_bp: 1900,
    price_net: 1000,
    created_at: nowDb(),
  });
  for (const categoryId of categoryIds)
    await shop.db('product_categories').insert({ product_id: entity.id, category_id: categoryId });
  return entity;
}

/** A rule with the host's condition tree; rule writes bump the visibility counter as the host's own writes do. */
export async function createRule(
  conditions: Record<string, unknown> = { type: 'andContainer', children: [] },
): Promise<string> {
  const shop = await getShop();
  const id = newId();
  await shop.db('rules').insert({
    id,
    name: `Rule ${id.slice(0, 6)}`,
    priority: 0,
    conditions: writeJson(conditions),
    created_at: nowDb(),
  });
  await shop.runtime.catalog.visibilityChanged(shop.db);
  return id;
}

/** Admin API calls with a bearer token. */
export async function admin() {
  const token = await adminToken();
  const agent = await http();
  const auth = { authorization: `Bearer ${token}` };
  return {
    get: (path: string) => agent.get(path).set(auth),
    post: (path: string, body: unknown) =>
      agent
        .post(path)
        .set(auth)
        .send(body as object),
    put: (path: string, body: unknown) =>
      agent
        .put(path)
        .set(auth)
        .send(body as object),
    postRaw: (path: string, text: string) =>
      agent.post(path).set(auth).set('content-type', 'application/json').send(text),
    delete: (path: string) => agent.delete(path).set(auth),
  };
}

export async function assign(kind: Kind, entityId: string, ruleId: string): Promise<void> {
  const res = await (await admin()).post(routeOf(kind), { [kind.idField]: entityId, ruleId });
  if (res.status !== 204) throw new Error(`assign failed: ${res.status} ${JSON.stringify(res.body)}`);
}

export async function rowsOf(kind: Kind, entityId: string): Promise<Array<Record<string, unknown>>> {
  return (await getShop()).db(kind.table).where({ [kind.column]: entityId });
}
