import { createHash } from 'node:crypto';
import { inTransaction, writeJson, type Db } from '../../lib/db.js';
import type { CustomerGroupRow } from '../customer/rows.js';
import { nowDb } from '../../lib/time.js';
import { visibilityChanged } from './catalog-version.js';

/** Stable ids, so the demo's links stay the same on every machine and a second seed finds the first. */
const demoId = (key: string) => createHash('sha256').update(`suite-demo-catalog:${key}`).digest('hex').slice(0, 32);

const CATEGORIES: Array<{ key: string; name: string; parent: string | null; position: number }> = [
  { key: 'tools', name: 'Tools', parent: null, position: 0 },
  { key: 'power-tools', name: 'Power tools', parent: 'tools', position: 0 },
  { key: 'hand-tools', name: 'Hand tools', parent: 'tools', position: 1 },
  { key: 'workwear', name: 'Workwear', parent: null, position: 1 },
  { key: 'safety', name: 'Safety gear', parent: 'workwear', position: 0 },
  { key: 'office', name: 'Office supplies', parent: null, position: 2 },
];

const PRODUCT_LINES: Array<{ category: string; names: string[]; basePrice: number; taxRateBp: number }> = [
  {
    category: 'power-tools',
    names: [
      'Cordless drill',
      'Impact driver',
      'Angle grinder',
      'Circular saw',
      'Jigsaw',
      'Orbital sander',
      'Rotary hammer',
      'Heat gun',
      'Router',
      'Planer',
    ],
    basePrice: 8900,
    taxRateBp: 1900,
  },
  {
    category: 'hand-tools',
    names: [
      'Claw hammer',
      'Screwdriver set',
      'Pliers',
      'Spirit level',
      'Tape measure',
      'Utility knife',
      'Hex key set',
      'Chisel set',
      'Hand saw',
      'Wrench set',
    ],
    basePrice: 1490,
    taxRateBp: 1900,
  },
  {
    category: 'workwear',
    names: [
      'Work trousers',
      'Work jacket',
      'Softshell vest',
      'Polo shirt',
      'Fleece pullover',
      'Rain jacket',
      'Thermal shirt',
      'Bib overalls',
    ],
    basePrice: 3990,
    taxRateBp: 1900,
  },
  {
    category: 'safety',
    names: [
      'Safety glasses',
      'Ear defenders',
      'Hard hat',
      'Work gloves',
      'Safety boots',
      'High-vis vest',
      'Dust masks (20)',
      'First aid kit',
    ],
    basePrice: 990,
    taxRateBp: 1900,
  },
  {
    category: 'office',
    names: [
      'Copy paper A4',
      'Ballpoint pens (50)',
      'Lever arch file',
      'Sticky notes',
      'Stapler',
      'Desk organiser',
      'Whiteboard markers',
      'Printer toner',
      'Notebook A5',
      'Label printer',
      'Trade fair ticket',
      'Workshop seat',
      'Training voucher',
      'Technical handbook',
    ],
    basePrice: 490,
    taxRateBp: 700,
  },
];

/** Demo categories, rules, ~50 products and a landing page. */
export async function seedDemoCatalog(db: Db): Promise<{ productIds: string[]; categoryIds: string[] }> {
  const categoryIds = CATEGORIES.map((c) => demoId(`category:${c.key}`));
  const productIds: string[] = [];
  for (const line of PRODUCT_LINES) for (const name of line.names) productIds.push(demoId(`product:${name}`));
  if (await db('categories').where({ id: categoryIds[0] }).first('id')) return { productIds, categoryIds };

  await inTransaction(db, async (trx) => {
    const now = nowDb();
    const homePage = demoId('cms:home');
    const salePage = demoId('cms:spring-sale');
    await trx('cms_pages').insert([
      {
        id: homePage,
        name: 'Tools home',
        title: 'Tools for professionals',
        sections: writeJson([
          { type: 'text', content: 'Everything a workshop needs, at business prices.' },
          { type: 'product-listing', title: 'Best sellers', productIds: productIds.slice(0, 4) },
        ]),
        created_at: now,
      },
      {
        id: salePage,
        name: 'Spring sale',
        title: 'Spring sale: tier prices on safety gear',
        sections: writeJson([
          { type: 'text', content: 'Order ten or more and pay less per piece.' },
          { type: 'image', url: '/static/spring-sale.jpg', alt: 'Spring sale' },
          { type: 'product-listing', title: 'On offer', productIds: productIds.slice(28, 34) },
        ]),
        created_at: now,
      },
    ]);
    await trx('categories').insert(
      CATEGORIES.map((c) => ({
        id: demoId(`category:${c.key}`),
        version_id: demoId(`category-version:${c.key}`),
        parent_id: c.parent ? demoId(`category:${c.parent}`) : null,
        name: c.name,
        position: c.position,
        active: true,
        cms_page_id: c.key === 'tools' ? homePage : null,
        created_at: now,
      })),
    );
    await trx('landing_pages').insert({
      id: demoId('landing:spring-sale'),
      version_id: demoId('landing-version:spring-sale'),
      name: 'Spring sale',
      url: 'spring-sale',
      active: true,
      cms_page_id: salePage,
      created_at: now,
    });

    let index = 0;
    for (const line of PRODUCT_LINES) {
      for (const [position, name] of line.names.entries()) {
        const id = demoId(`product:${name}`);
        const priceNet = line.basePrice + position * Math.round(line.basePrice / 7);
        await trx('products').insert({
          id,
          version_id: demoId(`product-version:${name}`),
          product_number: `DEMO-${10001 + index}`,
          name,
          description: `${name}: robust, tested, ready for daily professional use.`,
          stock: index % 9 === 4 ? 0 : 5 + ((index * 37) % 200),
          active: true,
          tax_rate_bp: line.taxRateBp,
          price_net: priceNet,
          manufacturer: ['Forge & Co', 'Brightline', 'Ironworks'][index % 3],
          ean: `400${String(1000000000 + index * 7919).slice(0, 10)}`,
          created_at: now,
        });
        await trx('product_categories').insert({ product_id: id, category_id: demoId(`category:${line.category}`) });
        if (index % 4 === 0 || line.category === 'safety')
          await trx('product_tier_prices').insert([
            { id: demoId(`tier:${name}:10`), product_id: id, min_quantity: 10, price_net: Math.round(priceNet * 0.95) },
            { id: demoId(`tier:${name}:50`), product_id: id, min_quantity: 50, price_net: Math.round(priceNet * 0.9) },
          ]);
        index++;
      }
    }

    let group = await trx<CustomerGroupRow>('customer_groups').where({ name: 'Business customers' }).first('id');
    if (!group) {
      group = { id: demoId('group:business') };
      await trx('customer_groups').insert({ id: group.id, name: 'Business customers', created_at: now });
    }
    await trx('rules').insert([
      {
        id: demoId('rule:business'),
        name: 'Business customers',
        priority: 10,
        conditions: writeJson({ type: 'customerGroup', operator: '=', value: [group.id] }),
        created_at: now,
      },
      {
        id: demoId('rule:employees'),
        name: 'Employees',
        priority: 5,
        conditions: writeJson({ type: 'isEmployee', value: true }),
        created_at: now,
      },
      {
        id: demoId('rule:logged-in'),
        name: 'Logged in',
        priority: 0,
        conditions: writeJson({ type: 'customerLoggedIn', value: true }),
        created_at: now,
      },
    ]);
    await visibilityChanged(trx);
  });
  return { productIds, categoryIds };
}
