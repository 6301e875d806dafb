import { expect } from 'chai';
import type { MigrationInterface } from 'typeorm';
import { SCHEMA_RELEASES, schemaSets, suiteB2BMigrations } from '../../../src/adapters/vendure/migrations.js';
import { migrationNames } from '../../../src/host-kit/migrator.js';

/**
 * The plugin's tables under Vendure's migrations (decision 0064): each release that adds knex
 * migrations ships one TypeORM migration for them, and a shipped one never changes (TypeORM runs
 * it once per database). So every knex migration of `migrations/vendure` and `migrations/plugin`
 * belongs to exactly one release: a new knex migration without a release (or with a release whose
 * class is not in `suiteB2BMigrations`) fails here, not in a shop that then refuses to start.
 */
describe("Vendure: the TypeORM migrations of the plugin's tables", () => {
  const sets = schemaSets();

  it('are named as TypeORM wants (a JavaScript timestamp at the end), in order, each once', () => {
    const stamps = SCHEMA_RELEASES.map((release) => {
      expect(release.name).to.match(/^SuiteB2B\w*\d{13}$/);
      return Number(release.name.slice(-13));
    });
    expect(stamps).to.deep.equal([...stamps].sort((a, b) => a - b));
    expect(new Set(stamps).size).to.equal(stamps.length);
  });

  it('cover every knex migration of both folders, each in one release', () => {
    for (const folder of ['vendure', 'plugin'] as const) {
      const names = migrationNames(sets[folder].folder);
      const ends = SCHEMA_RELEASES.map((release) => release.upTo[folder]);
      for (const end of ends) expect(names, `${folder}: ${end}`).to.include(end);
      expect(ends, `${folder}: releases in order`).to.deep.equal([...ends].sort());
      expect(ends.at(-1), `${folder}: ${names.at(-1)} belongs to no release (add one to SCHEMA_RELEASES)`).to.equal(
        names.at(-1),
      );
    }
  });

  it('are all in suiteB2BMigrations, one class per release, oldest first', () => {
    const listed = suiteB2BMigrations.map((migration) => new (migration as new () => MigrationInterface)().name);
    expect(listed).to.deep.equal(SCHEMA_RELEASES.map((release) => release.name));
  });
});
