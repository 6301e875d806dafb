import { expect } from 'chai';
import { adminToken, getShop, http } from '../../helpers/shop.js';
import { CONSOLE, loginOperator } from './helpers.js';

describe('console settings: the account menu preview', () => {
  before(async function () {
    this.timeout(180000);
    await getShop();
  });

  it('shows the account menu as the saved order, labels and hidden entries arrange it', async () => {
    const agent = await http();
    const bearer = `Bearer ${await adminToken()}`;
    const configure = (settings: Record<string, unknown>) =>
      agent.patch('/api/_action/plugin-config/suite-b2b').set('authorization', bearer).send(settings);
    const operator = await loginOperator();
    const entries = async () => {
      const page = await operator.agent.get(`${CONSOLE}/settings`);
      expect(page.status).to.equal(200);
      const section = /<section[^>]*data-test="menu-preview"[\s\S]*?<\/section>/.exec(page.text)![0];
      return [
        ...section.matchAll(/data-test="menu-entry" data-key="(\w+)"( data-hidden="true")?>(?:<s>)?([^<]*)/g),
      ].map((m) => ({ key: m[1]!, hidden: Boolean(m[2]), label: m[3]!.trim() }));
    };
    try {
      const before = await entries();
      expect(before[0]).to.deep.equal({ key: 'overview', hidden: false, label: 'Overview' });
      expect(
        (
          await configure({
            accountMenuOrder: ['events', 'ordering'],
            accountMenuLabels: { documents: 'Invoices & delivery notes' },
            accountMenuHidden: ['company'],
          })
        ).status,
      ).to.equal(200);
      const after = await entries();
      const top = after.filter((e) => ['events', 'ordering', 'overview', 'company'].includes(e.key)).map((e) => e.key);
      expect(top.slice(0, 2)).to.deep.equal(['events', 'ordering']);
      expect(after.find((e) => e.key === 'company')).to.include({ hidden: true });
      expect(
        after.find((e) => e.key === 'employees'),
        'a hidden heading hides its children',
      ).to.include({ hidden: true });
      expect(after.find((e) => e.key === 'documents')).to.include({
        label: 'Invoices &amp; delivery notes',
        hidden: false,
      });
    } finally {
      await configure({ accountMenuOrder: [], accountMenuLabels: {}, accountMenuHidden: [] });
    }
  });
});
