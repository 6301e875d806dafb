import { expect } from 'chai';
import { cronEvery } from '../../../src/adapters/vendure/job-queue.js';

describe('unit: a plugin schedule as a Vendure cron pattern (cronEvery)', () => {
  it('runs on the divisions of the minute, hour or day an interval fits', () => {
    expect(cronEvery(10)).to.equal('*/10 * * * * *');
    expect(cronEvery(60)).to.equal('0 */1 * * * *');
    expect(cronEvery(300)).to.equal('0 */5 * * * *');
    expect(cronEvery(15 * 60)).to.equal('0 */15 * * * *');
    expect(cronEvery(3600)).to.equal('0 0 */1 * * *');
    expect(cronEvery(6 * 3600)).to.equal('0 0 */6 * * *');
    expect(cronEvery(86400)).to.equal('0 0 0 * * *');
  });

  it('runs an interval that does not divide its unit at the next shorter one that does (more often, never less)', () => {
    expect(cronEvery(7)).to.equal('*/6 * * * * *');
    expect(cronEvery(7 * 60)).to.equal('0 */6 * * * *');
    expect(cronEvery(5 * 3600)).to.equal('0 0 */4 * * *');
    expect(cronEvery(3 * 86400)).to.equal('0 0 0 * * *');
  });
});
