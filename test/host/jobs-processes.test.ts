import { expect } from 'chai';
import { newId } from '../../src/lib/ids.js';
import { projectPath } from '../../src/host-kit/paths.js';
import { loadManifest } from '../../src/host-kit/manifest.js';
import { getShop, isServerDb, testMailbox } from '../helpers/shop.js';
import { startAppProcesses, stopAppProcesses, type AppProcess } from '../helpers/processes.js';

describe('host: job workers in several app processes', function () {
  this.timeout(120000);
  let processes: AppProcess[] = [];
  after(() => stopAppProcesses(processes));

  it('sends every outbox mail exactly once while worker processes claim at the same time', async () => {
    const shop = await getShop();
    const mailbox = await testMailbox();
    // A template every process registers from plugin.json, so any of them can render it.
    const template = loadManifest(projectPath('plugin.json')).mailTemplates[0]!;
    const recipients = Array.from({ length: 30 }, (_, i) => `scale-${i}-${newId().slice(0, 8)}@example.test`);
    for (const to of recipients)
      await shop.runtime.mail.enqueue(shop.db, { template, to, data: { firstName: 'Scale', lastName: 'Out' } });
    // Beside the 'mail.send' schedule, queued 'mail.send' jobs make every process work the outbox at once.
    for (let i = 0; i < 15; i++) await shop.jobs.jobs.enqueue(shop.db, 'mail.send', {});

    // SQLite has one writer process by design; MySQL/MariaDB is where workers scale out.
    processes = await startAppProcesses(isServerDb() ? 3 : 1, { WORKERS: '1', MAILER_URL: mailbox.url });
    const deadline = Date.now() + 60000;
    let pending = recipients.length;
    while (pending > 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      pending = Number(
        (
          await shop
            .db('mail_outbox')
            .whereIn('recipient', recipients)
            .whereNot('state', 'sent')
            .count({ n: '*' })
            .first()
        )?.n,
      );
    }
    expect(pending, 'mails still unsent after 60 s').to.equal(0);
    for (const to of recipients)
      expect(
        mailbox.messages.filter((m) => m.envelopeTo.includes(to)),
        to,
      ).to.have.length(1);
    const rows = await shop.db('mail_outbox').whereIn('recipient', recipients).select('attempts');
    expect(
      rows.every((r: { attempts: number }) => r.attempts === 1),
      'no mail claimed twice',
    ).to.equal(true);

    while (
      Date.now() < deadline &&
      Number(
        (await shop.db('jobs').where({ name: 'mail.send' }).whereNot('state', 'done').count({ n: '*' }).first())?.n,
      ) > 0
    )
      await new Promise((r) => setTimeout(r, 250));
    const jobs = await shop.db('jobs').where({ name: 'mail.send' }).select('state', 'attempts');
    expect(jobs.filter((j: { state: string }) => j.state === 'done')).to.have.length(15);
    expect(jobs.every((j: { attempts: number }) => j.attempts === 1)).to.equal(true);
  });
});
