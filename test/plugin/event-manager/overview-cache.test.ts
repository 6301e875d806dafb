import { expect } from 'chai';
import supertest from 'supertest';
import { newId } from '../../../src/lib/ids.js';
import { nowDb, toDbTime } from '../../../src/lib/time.js';
import { getShop, isServerDb } from '../../helpers/shop.js';
import { sideApp } from '../../helpers/side-app.js';
import { statementsDuring } from '../../helpers/statements.js';
import { as, createEvent, createSpecification, insertProduct, newCustomer, salesStaff } from './helpers.js';

/**
 * The event overview keeps its candidate events per events version (candidate-cache.ts): whatever
 * changes which events match must show on the very next request, whoever wrote it.
 */
describe('event manager: the overview after changes (candidate events kept per events version)', function () {
  this.timeout(60000);
  before(async function () {
    this.timeout(180000);
    await getShop();
  });

  /**
   * The overview of the events whose name starts with `tag` (an own filter: the kept candidates
   * answer it), optionally further filtered: the total as a page of one tells it (the candidates
   * count it; a short first page would count its own rows), and the ids of all.
   */
  async function overview(
    token: string,
    tag: string,
    filter: Array<Record<string, unknown>> = [],
  ): Promise<{ total: number; ids: string[] }> {
    const api = await as(token);
    const body = { filter: [{ type: 'prefix', field: 'name', value: tag }, ...filter] };
    const first = await api.post('/events', { ...body, limit: 1 });
    expect(first.status, JSON.stringify(first.body)).to.equal(200);
    const all = await api.post('/events', body);
    expect(all.status, JSON.stringify(all.body)).to.equal(200);
    return { total: first.body.total, ids: all.body.elements.map((e: { id: string }) => e.id).sort() };
  }

  const sorted = (...ids: string[]) => [...ids].sort();

  /** Sales staff, a customer and a tag of their own, and an event named by the tag that stays in the overview (it fills a page of one, so the total is the candidates' count). */
  async function scene(label: string) {
    const staff = await salesStaff();
    const customer = await newCustomer();
    const tag = `${label} ${newId().slice(0, 8)}`;
    const stays = await createEvent(staff.token, { name: `${tag} stays` });
    return { staff, customer, tag, stays };
  }

  it('shows a published event at once, and no more once it is back in draft, changed to another language or deleted', async () => {
    const staff = await salesStaff();
    const staffApi = await as(staff.token);
    const customer = await newCustomer();
    const tag = `Cache ${newId().slice(0, 8)}`;
    const first = await createEvent(staff.token, { name: `${tag} first`, language: 'en' });
    const en = [{ type: 'equals', field: 'language', value: 'en' }];
    expect(await overview(customer.token, tag, en)).to.deep.equal({ total: 1, ids: [first.id] });

    const second = await createEvent(staff.token, { name: `${tag} second`, language: 'en' });
    expect(await overview(customer.token, tag, en)).to.deep.equal({ total: 2, ids: sorted(first.id, second.id) });

    expect((await staffApi.post(`/event-manager/event/${second.id}/status`, { status: 'draft' })).status).to.equal(200);
    expect(await overview(customer.token, tag, en)).to.deep.equal({ total: 1, ids: [first.id] });

    expect((await staffApi.patch(`/event-manager/event/${first.id}`, { language: 'de' })).status).to.equal(200);
    expect(await overview(customer.token, tag, en)).to.deep.equal({ total: 0, ids: [] });
    expect(await overview(customer.token, tag)).to.deep.equal({ total: 1, ids: [first.id] });

    expect((await staffApi.delete(`/event-manager/event/${first.id}`)).status).to.equal(204);
    expect(await overview(customer.token, tag)).to.deep.equal({ total: 0, ids: [] });
  });

  it("takes the events version from the context read (contract 3.2) and the products from the host's kept reads, no read of their own, and still sees the next write", async () => {
    const { db } = await getShop();
    const { staff, customer, tag, stays } = await scene('Version');
    expect(await overview(customer.token, tag)).to.deep.equal({ total: 1, ids: [stays.id] });
    const warm = await statementsDuring(db, /b2b_event_counters/, () => overview(customer.token, tag));
    expect(warm.result).to.deep.equal({ total: 1, ids: [stays.id] });
    // Two requests: on MySQL/MariaDB each reads the counter once, in the union with the host's
    // versions; on SQLite the database is unchanged between them, so the versions read is kept.
    expect(warm.statements).to.have.length(isServerDb() ? 2 : 0);
    for (const sql of warm.statements) expect(sql).to.match(/catalog_counters.*union all.*b2b_event_counters/i);
    // Nor the event's product: the host's kept product reads name it (products version).
    const page = await statementsDuring(db, /\bproducts\b/, () => overview(customer.token, tag));
    expect(page.statements, page.statements.join('\n')).to.deep.equal([]);
    const added = await createEvent(staff.token, { name: `${tag} added` });
    expect(await overview(customer.token, tag)).to.deep.equal({ total: 2, ids: sorted(stays.id, added.id) });
    await db('products')
      .where({ id: added.productId })
      .update({ name: `${tag} renamed product` });
    const api = await as(customer.token);
    const renamed = await api.post('/events', { filter: [{ type: 'prefix', field: 'name', value: tag }] });
    expect(renamed.body.elements.find((e: { id: string }) => e.id === added.id).productName).to.equal(
      `${tag} renamed product`,
    );
  });

  it('follows a change of speakers when filtered by speaker', async () => {
    const staff = await salesStaff();
    const customer = await newCustomer();
    const tag = `Speaker ${newId().slice(0, 8)}`;
    const speaker = await createSpecification(staff.token, 'speaker', `${tag} speaker`);
    const event = await createEvent(staff.token, { name: `${tag} event` });
    const bySpeaker = [{ type: 'equals', field: 'speakerId', value: speaker.id }];
    expect(await overview(customer.token, tag, bySpeaker)).to.deep.equal({ total: 0, ids: [] });

    expect(
      (await (await as(staff.token)).patch(`/event-manager/event/${event.id}`, { speakerIds: [speaker.id] })).status,
    ).to.equal(200);
    expect(await overview(customer.token, tag, bySpeaker)).to.deep.equal({ total: 1, ids: [event.id] });
  });

  it('sees a write made outside the app (SQL) and one made by another app process on the same database', async () => {
    const shop = await getShop();
    const { staff, customer, tag, stays } = await scene('Outside');
    const event = await createEvent(staff.token, { name: `${tag} event` });
    expect(await overview(customer.token, tag)).to.deep.equal({ total: 2, ids: sorted(stays.id, event.id) });

    await shop.db('b2b_events').where({ id: event.id }).update({ status: 'closed' });
    expect(await overview(customer.token, tag)).to.deep.equal({ total: 1, ids: [stays.id] });
    await shop.db('b2b_events').where({ id: event.id }).update({ status: 'published' });
    expect(await overview(customer.token, tag)).to.deep.equal({ total: 2, ids: sorted(stays.id, event.id) });

    // The other process keeps its own candidates; it read them before the write here.
    const other = await sideApp({ logLevel: 'silent' });
    try {
      const overviewThere = async () => {
        const res = await supertest(other.shop.app)
          .post('/store-api/events')
          .set('suite-context-token', customer.token)
          .send({ filter: [{ type: 'prefix', field: 'name', value: tag }], limit: 1 });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        return res.body.total as number;
      };
      expect(await overviewThere()).to.equal(2);
      expect(
        (await (await as(staff.token)).post(`/event-manager/event/${event.id}/status`, { status: 'canceled' })).status,
      ).to.equal(200);
      expect(await overviewThere()).to.equal(1);
    } finally {
      await other.shop.close();
    }
  });

  it('leaves out an event once it is over, without any write in between', async () => {
    const shop = await getShop();
    const { customer, tag, stays } = await scene('Ending');
    const product = await insertProduct();
    const endsAt = Date.now() + 1500;
    const id = newId();
    await shop.db('b2b_events').insert({
      id,
      product_id: product.id,
      name: `${tag} event`,
      language: 'en',
      starts_at: toDbTime(endsAt - 3600_000),
      ends_at: toDbTime(endsAt),
      waiting_list: false,
      status: 'published',
      created_at: nowDb(),
    });
    expect(await overview(customer.token, tag)).to.deep.equal({ total: 2, ids: sorted(stays.id, id) });
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, endsAt - Date.now()) + 50));
    expect(await overview(customer.token, tag)).to.deep.equal({ total: 1, ids: [stays.id] });
  });
});
