import { expect } from 'chai';
import { adminToken, getShop, http } from '../../helpers/shop.js';
import { CONSOLE, loginOperator, type Operator } from './helpers.js';

async function api(method: 'get' | 'patch', path: string, body?: unknown) {
  const request = (await http())[method](`/api${path}`).set('authorization', `Bearer ${await adminToken()}`);
  return body === undefined ? request : request.send(body as object);
}

/** The settings form as a browser sends it: every field with the saved value, repeated checkboxes repeated. */
function formOf(current: Record<string, unknown>, overrides: Record<string, string | string[]>, csrf: string) {
  const fields: Array<[string, string]> = [['_csrf', csrf]];
  const asText = (value: unknown) =>
    Array.isArray(value)
      ? value.join('\n')
      : value && typeof value === 'object'
        ? Object.entries(value)
            .map(([key, entry]) => `${key} = ${String(entry)}`)
            .join('\n')
        : value === null || value === undefined
          ? ''
          : String(value);
  for (const [name, value] of Object.entries(current)) {
    if (name in overrides) continue;
    if (typeof value === 'boolean') {
      if (value) fields.push([name, 'on']);
    } else if (name === 'closedShopSalesChannelIds') for (const id of value as string[]) fields.push([name, id]);
    else fields.push([name, asText(value)]);
  }
  for (const [name, value] of Object.entries(overrides))
    for (const item of Array.isArray(value) ? value : [value]) fields.push([name, item]);
  return new URLSearchParams(fields).toString();
}

async function postSettings(operator: Operator, body: string) {
  return operator.agent.post(`${CONSOLE}/settings`).type('form').send(body);
}

// Before decision 0054 the settings page was a dump of technical keys in no order, a two-value choice a free-text
// box, and a closed shop needed sales channel ids pasted in.
describe('console: settings grouped by purpose, choices as choices, sales channels by name', () => {
  before(async function () {
    this.timeout(180000);
    await getShop();
  });

  it('shows the settings in named groups with labels an operator reads', async () => {
    const operator = await loginOperator();
    const page = await operator.agent.get(`${CONSOLE}/settings`);
    expect(page.status).to.equal(200);
    const headings = [...page.text.matchAll(/<h2 id="group-[^"]+">([^<]+)<\/h2>/g)].map((m) => m[1]);
    expect(headings.slice(0, 7)).to.deep.equal([
      'Login and access',
      'Order approvals',
      'Offers',
      'Recurring orders',
      'Events',
      'Imports',
      'Account menu in the storefront',
    ]);
    const approvals = /data-test="settings-group-approvals">([\s\S]*?)<\/section>/.exec(page.text)![1]!;
    expect(approvals).to.contain('Time between two price refreshes of an approval (seconds)');
    expect(page.text).not.to.contain('Approval refresh min interval seconds');
  });

  it('offers the missed-occurrences policy as two named choices and the closed shop as sales channels by name; saves them', async () => {
    const operator = await loginOperator();
    const page = await operator.agent.get(`${CONSOLE}/settings`);
    expect(page.text).to.match(/type="radio" name="recurringOrderMissedOccurrences" value="place-once"/);
    expect(page.text).to.match(/type="radio" name="recurringOrderMissedOccurrences" value="skip"/);
    expect(page.text).to.contain('Skip them');
    expect(page.text).not.to.match(/<input type="text" id="recurringOrderMissedOccurrences"/);
    expect(page.text).not.to.match(/<textarea id="closedShopSalesChannelIds"/);

    const channels = (await api('get', '/sales-channel?limit=500')).body.data as Array<{
      id: string;
      attributes: { name: string };
    }>;
    expect(channels.length).to.be.greaterThan(0);
    const channel = channels[0]!;
    const box = new RegExp(
      `type="checkbox" name="closedShopSalesChannelIds" value="${channel.id}"[^>]*> ${channel.attributes.name}<`,
    );
    expect(page.text).to.match(box);

    const current = (await api('get', '/_action/plugin-config/suite-b2b')).body as Record<string, unknown>;
    try {
      const saved = await postSettings(
        operator,
        formOf(
          current,
          { recurringOrderMissedOccurrences: 'skip', closedShopSalesChannelIds: [channel.id] },
          await operator.csrf(),
        ),
      );
      expect(saved.status, saved.text).to.equal(303);
      const now = (await api('get', '/_action/plugin-config/suite-b2b')).body as Record<string, unknown>;
      expect(now.recurringOrderMissedOccurrences).to.equal('skip');
      expect(now.closedShopSalesChannelIds).to.deep.equal([channel.id]);
      const again = await operator.agent.get(`${CONSOLE}/settings`);
      expect(again.text).to.match(/type="radio" name="recurringOrderMissedOccurrences" value="skip" checked/);
      expect(again.text).to.match(new RegExp(`value="${channel.id}" checked`));
    } finally {
      await api('patch', '/_action/plugin-config/suite-b2b', {
        recurringOrderMissedOccurrences: current.recurringOrderMissedOccurrences,
        closedShopSalesChannelIds: current.closedShopSalesChannelIds,
      });
    }
  });
});
