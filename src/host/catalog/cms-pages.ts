import { readJson, type Executor } from '../../lib/db.js';

/** A row of cms_pages (migrations/host/002); sections are JSON text. */
interface CmsPageRow {
  id: string;
  name: string;
  title: string;
  sections: string;
}
import type { CmsPageRecord } from '../../contract/index.js';

/** A CMS page and the categories and landing pages that use it as their layout. */
export async function getCmsPage(executor: Executor, id: string): Promise<CmsPageRecord | null> {
  const row = await executor<CmsPageRow>('cms_pages').where({ id }).first();
  if (!row) return null;
  const [categories, landingPages] = await Promise.all([
    executor<{ id: string; cms_page_id: string | null }>('categories')
      .where({ cms_page_id: id })
      .orderBy('id')
      .pluck('id'),
    executor<{ id: string; cms_page_id: string | null }>('landing_pages')
      .where({ cms_page_id: id })
      .orderBy('id')
      .pluck('id'),
  ]);
  const sections = readJson<unknown>(row.sections, []);
  return {
    id: row.id,
    name: row.name,
    title: row.title,
    sections: Array.isArray(sections) ? sections : [],
    categoryIds: categories,
    landingPageIds: landingPages,
  };
}
