import { expect } from 'chai';
import type { as } from '../sales-representative/helpers.js';

export type Client = Awaited<ReturnType<typeof as>>;

export async function createUnit(client: Client, name: string, parentId: string | null = null): Promise<string> {
  const res = await client.post('/b2b/organisation-unit', { name, parentId });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body.unit.id;
}
