import { expect } from 'chai';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contractSatisfies, loadManifest } from '../../src/host-kit/manifest.js';
import { CONTRACT_VERSION } from '../../src/contract/index.js';
import { projectPath } from '../../src/host-kit/paths.js';
import { adminToken, expectError, http } from '../helpers/shop.js';

const real = JSON.parse(readFileSync(projectPath('plugin.json'), 'utf8'));

function manifestFile(manifest: unknown): string {
  const file = join(mkdtempSync(join(tmpdir(), 'manifest-')), 'plugin.json');
  writeFileSync(file, typeof manifest === 'string' ? manifest : JSON.stringify(manifest));
  return file;
}

describe('host: plugin manifest', () => {
  it('loads the repository plugin.json', () => {
    expect(loadManifest(projectPath('plugin.json')).name).to.equal('suite-b2b');
  });

  it('stops with a message naming the field that is wrong', () => {
    const { entry: _entry, ...withoutEntry } = real;
    expect(() => loadManifest(manifestFile(withoutEntry))).to.throw(/field "\/entry"/);
    expect(() => loadManifest(manifestFile({ ...real, version: 'one' }))).to.throw(/field "\/version"/);
    expect(() => loadManifest(manifestFile({ ...real, contractVersion: '^6.0.0' }))).to.throw(
      /field "\/contractVersion" requires \^6\.0\.0/,
    );
    expect(() => loadManifest(manifestFile({ ...real, contractVersion: '^1.0.0' }))).to.throw(
      /field "\/contractVersion" requires \^1\.0\.0, the host offers 5\.0\.0/,
    );
    expect(() => loadManifest(manifestFile({ ...real, contractVersion: 'two' }))).to.throw(
      /field "\/contractVersion" is not a semver range/,
    );
    expect(() =>
      loadManifest(manifestFile({ ...real, permissions: [{ key: 'Bad Key!', group: 'x', description: 'x' }] })),
    ).to.throw(/field "\/permissions\/0\/key"/);
    const badDefault = {
      ...real,
      config: { type: 'object', properties: { retries: { type: 'integer', default: 'three' } } },
    };
    expect(() => loadManifest(manifestFile(badDefault))).to.throw(/field "\/config\/retries"/);
    expect(() => loadManifest(manifestFile('{not json'))).to.throw(/not readable JSON/);
  });

  it('reads the contract requirement as an npm semver range', () => {
    expect(CONTRACT_VERSION).to.equal('5.0.0');
    expect(loadManifest(manifestFile({ ...real, contractVersion: '^5' })).name).to.equal('suite-b2b');
    // A plugin built against 4.x does not load on a 5.x host.
    expect(() => loadManifest(manifestFile({ ...real, contractVersion: '^4.0.0' }))).to.throw(/requires \^4\.0\.0/);
    expect(() => loadManifest(manifestFile({ ...real, contractVersion: '^0.x' }))).to.throw(/requires \^0\.x/);
    // ^2: any 2.x.y, never 3
    expect(contractSatisfies('2.0.0', '^2')).to.equal(true);
    expect(contractSatisfies('2.7.1', '^2')).to.equal(true);
    expect(contractSatisfies('3.0.0', '^2')).to.equal(false);
    expect(contractSatisfies('1.9.9', '^2')).to.equal(false);
    // ^0.x: below 1.0.0 every minor may break, so ^0.2.0 means >=0.2.0 <0.3.0 (the hand-written check accepted 0.3.0)
    expect(contractSatisfies('0.2.5', '^0.2.0')).to.equal(true);
    expect(contractSatisfies('0.3.0', '^0.2.0')).to.equal(false);
    expect(contractSatisfies('0.0.4', '^0.0.3')).to.equal(false);
    expect(contractSatisfies('0.5.0', '^0.x')).to.equal(true);
    expect(contractSatisfies('1.0.0', '^0.x')).to.equal(false);
    expect(contractSatisfies('2.0.0', '^0.x')).to.equal(false);
  });

  it('serves the settings with their defaults and validates changes through the Admin API', async () => {
    const agent = await http();
    const bearer = `Bearer ${await adminToken()}`;
    const before = await agent.get('/api/_action/plugin-config/suite-b2b').set('authorization', bearer);
    expect(before.status).to.equal(200);
    expect(before.body.offerDefaultValidityDays).to.equal(real.config.properties.offerDefaultValidityDays.default);
    expectError(
      await agent
        .patch('/api/_action/plugin-config/suite-b2b')
        .set('authorization', bearer)
        .send({ offerDefaultValidityDays: 'soon' }),
      400,
    );
    expectError(
      await agent.patch('/api/_action/plugin-config/suite-b2b').set('authorization', bearer).send({ noSuchSetting: 1 }),
      400,
    );
    const changed = await agent
      .patch('/api/_action/plugin-config/suite-b2b')
      .set('authorization', bearer)
      .send({ offerDefaultValidityDays: 45 });
    expect(changed.status).to.equal(200);
    expect(
      (await agent.get('/api/_action/plugin-config/suite-b2b').set('authorization', bearer)).body
        .offerDefaultValidityDays,
    ).to.equal(45);
    await agent
      .patch('/api/_action/plugin-config/suite-b2b')
      .set('authorization', bearer)
      .send({ offerDefaultValidityDays: before.body.offerDefaultValidityDays });
  });
});
