import { expect } from 'chai';
import { hashSecret, newId, newSecret } from '../../../src/lib/ids.js';
import { addSeconds, toDbTime } from '../../../src/lib/time.js';
import { purgeExpired } from '../../../src/host/ops/housekeeping.js';
import { getShop } from '../../helpers/shop.js';
import { CONSOLE, createAdminUser, loginOperator } from './helpers.js';

describe('console: session purge', () => {
  it('the housekeeping job deletes expired console sessions and keeps live ones: an operator still logged in stays logged in', async () => {
    const shop = await getShop();
    const operator = await loginOperator();
    const { id: userId } = await createAdminUser();
    const expired = newId();
    const now = new Date();
    await shop.db('admin_console_sessions').insert({
      id: expired,
      token_hash: hashSecret(newSecret(32)),
      admin_user_id: userId,
      csrf_token: newSecret(32),
      created_at: toDbTime(addSeconds(now, -9 * 3600)),
      expires_at: toDbTime(addSeconds(now, -3600)),
    });
    const deleted = await purgeExpired(shop.db);
    expect(deleted.admin_console_sessions).to.be.at.least(1);
    expect(await shop.db('admin_console_sessions').where({ id: expired }).first()).to.equal(undefined);
    expect((await operator.agent.get(CONSOLE)).status).to.equal(200);
  });
});
