import Handlebars from 'handlebars';
import { readFileSync } from 'node:fs';
import { fromMinor } from '../../lib/money.js';
import { readJson } from '../../lib/db.js';
import { Errors } from '../../lib/errors.js';
import { reply } from '../../lib/routes.js';
import { pathParams } from '../../lib/schemas.js';
import {
  defineStoreRoute,
  type CatalogEntity,
  type CmsPageRecord,
  type HostRuntime,
  type StoreContext,
} from '../../contract/index.js';
import { TAG } from './snippets.js';
import { pricesWithheld } from '../closed-shop/index.js';

const TEMPLATE = new URL('../../../templates/storefront/platform-cms.hbs', import.meta.url);
/** Image sources a page may use: site-relative paths or http(s) URLs, never javascript: or data:. */
const SAFE_URL = /^(\/(?!\/)|https?:\/\/)/i;
const MAX_LISTED_PRODUCTS = 100;

let render: HandlebarsTemplateDelegate | null = null;
function template(): HandlebarsTemplateDelegate {
  if (!render) {
    const hb = Handlebars.create();
    hb.registerHelper('eq', (a: unknown, b: unknown) => a === b);
    render = hb.compile(readFileSync(TEMPLATE, 'utf8'), { strict: false });
  }
  return render;
}

/**
 * A page nobody references is public. A page that categories or landing pages use is shown only
 * when the context may see one of them (active and visible): otherwise the page would leak what
 * a partial assortment hides.
 */
async function visibleToContext(host: HostRuntime, ctx: StoreContext, page: CmsPageRecord): Promise<boolean> {
  const users: Array<[CatalogEntity, string[]]> = [
    ['category', page.categoryIds],
    ['landing_page', page.landingPageIds],
  ];
  let referenced = false;
  for (const [entity, ids] of users) {
    if (ids.length === 0) continue;
    referenced = true;
    if ((await host.catalog.visibleEntityIds(host.db, ctx, entity, ids)).length > 0) return true;
  }
  return !referenced;
}

function money(amountMinor: number, ctx: StoreContext): string {
  const value = fromMinor(amountMinor, ctx.salesChannel.currencyPrecision);
  try {
    return new Intl.NumberFormat(ctx.salesChannel.languageCode, {
      style: 'currency',
      currency: ctx.salesChannel.currencyIso,
    }).format(value);
  } catch {
    return `${value} ${ctx.salesChannel.currencyIso}`;
  }
}

/** A section's text field as the page prints it: strings, numbers and flags as text; anything else as nothing. */
const textOf = (value: unknown): string =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';

async function sectionsFor(
  host: HostRuntime,
  ctx: StoreContext,
  raw: unknown,
): Promise<Array<Record<string, unknown>>> {
  const sections: Array<Record<string, unknown>> = [];
  for (const section of readJson<unknown[]>(raw, [])) {
    if (typeof section !== 'object' || section === null) continue;
    const s = section as Record<string, unknown>;
    if (s.type === 'text') sections.push({ type: 'text', content: textOf(s.content) });
    else if (s.type === 'image' && typeof s.url === 'string' && SAFE_URL.test(s.url))
      sections.push({ type: 'image', url: s.url, alt: textOf(s.alt) });
    else if (s.type === 'product-listing') {
      const ids = Array.isArray(s.productIds)
        ? s.productIds.filter((id): id is string => typeof id === 'string').slice(0, MAX_LISTED_PRODUCTS)
        : [];
      const products = ids.length ? await host.catalog.visibleProducts(host.db, ctx, ids) : [];
      const withheld = await pricesWithheld(host, ctx);
      const items = [];
      for (const product of products) {
        const price = withheld ? null : await host.prices.calculate(host.db, ctx, product, 1);
        items.push({
          id: product.id,
          name: product.name,
          productNumber: product.productNumber,
          price: price ? money(price.unitNet, ctx) : null,
        });
      }
      sections.push({ type: 'product-listing', title: typeof s.title === 'string' ? s.title : null, products: items });
    }
  }
  return sections;
}

export function platformCmsRoutes(host: HostRuntime) {
  return [
    defineStoreRoute({
      method: 'GET',
      path: '/platform-cms/{id}',
      operationId: 'renderPlatformCmsPage',
      summary:
        'A CMS page rendered as an HTML fragment; 404 when it is absent or only used by categories and landing pages hidden from the caller.',
      tags: [TAG],
      auth: 'public',
      permission: null,
      schemas: {
        params: pathParams('id'),
        responses: { 200: { contentType: 'text/html', description: 'The rendered page (an <article> fragment).' } },
      },
      async handler({ ctx, params }) {
        const page = await host.cms.get(host.db, params.id);
        if (!page || !(await visibleToContext(host, ctx, page))) throw Errors.notFound('CMS page', params.id);
        const html = template()({
          page: { id: page.id, name: page.name, title: page.title },
          sections: await sectionsFor(host, ctx, page.sections),
        });
        return reply(200, html, {
          contentType: 'text/html; charset=utf-8',
          headers: { 'Cache-Control': 'private, no-cache' },
        });
      },
    }),
  ];
}
