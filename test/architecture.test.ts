import { expect } from 'chai';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { projectPath } from '../src/host-kit/paths.js';

/**
 * The wall between plugin and host, checked on the import graph: plugin code and plugin
 * migrations import nothing of the host but the contract (type imports count: they couple to the
 * host's internals just the same), shared code imports neither side, and the host imports nothing of
 * the plugin (it loads it through plugin.json's entry only). The hosts' shared kit (src/host-kit:
 * plugin loading, manifest, migrations, registries, passwords, rate limits, documents …) knows the
 * contract only, and the Vendure adapter imports the contract, lib and the kit, never the reference host.
 */

const ROOT = projectPath();
const CONTRACT = 'src/host/contract.ts';

interface Rule {
  /** Files the rule applies to (project-relative folder). */
  from: string;
  /** What they may not import: a project-relative folder … */
  forbidden: string[];
  /** … except these files. */
  except?: string[];
}

export const WALL: Rule[] = [
  { from: 'src/plugin', forbidden: ['src/host'], except: [CONTRACT] },
  { from: 'migrations/plugin', forbidden: ['src/host', 'src/plugin'] },
  { from: 'src/lib', forbidden: ['src/host', 'src/host-kit', 'src/adapters', 'src/plugin', 'migrations'] },
  { from: 'src/host-kit', forbidden: ['src/host', 'src/adapters', 'src/plugin', 'migrations'], except: [CONTRACT] },
  { from: 'src/host', forbidden: ['src/plugin', 'migrations/plugin', 'src/adapters'] },
  { from: 'src/adapters', forbidden: ['src/host', 'src/plugin', 'migrations/plugin'], except: [CONTRACT] },
  { from: 'migrations/host', forbidden: ['src/plugin', 'migrations/plugin'] },
];

function sourceFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(ts|mts|cts)$/.test(f) && !f.endsWith('.d.ts'))
    .map((f) => join(folder, f));
}

/** Every module a file names: static and type imports, re-exports, dynamic import(), require(). */
export function importsOf(source: string): string[] {
  return ts.preProcessFile(source, true, true).importedFiles.map((f) => f.fileName);
}

/** A relative specifier as a project-relative path ('.js' written for a '.ts' file, as ESM wants). */
function resolveSpecifier(file: string, specifier: string): string | null {
  if (!specifier.startsWith('.') && !specifier.startsWith('/')) return null;
  const absolute = specifier.startsWith('/') ? specifier : resolve(ROOT, dirname(file), specifier);
  return relative(ROOT, absolute).replace(/\.(js|mjs|cjs)$/, '.ts');
}

const inside = (path: string, folder: string) => path === folder || path.startsWith(`${folder}/`);

/** The imports of `file` (project-relative) with `source` that break a rule of the wall. */
export function wallBreaches(file: string, source: string): string[] {
  const breaches: string[] = [];
  for (const rule of WALL.filter((r) => inside(file, r.from)))
    for (const specifier of importsOf(source)) {
      const target = resolveSpecifier(file, specifier);
      if (!target || rule.except?.includes(target)) continue;
      const folder = rule.forbidden.find((f) => inside(target, f));
      if (folder)
        breaches.push(
          `${file} imports ${specifier} (${target}): ${rule.from} may not import ${folder}${rule.except ? ` except ${rule.except.join(', ')}` : ''}`,
        );
    }
  return breaches;
}

/** The one adapter file allowed to reach into Vendure's internals (docs/vendure.md, "Extension points used"). */
const VENDURE_PATCH_FILE = 'src/adapters/vendure/shared-transaction.ts';

describe('architecture: the wall between plugin and host', () => {
  it('no file imports across the wall', () => {
    const breaches = WALL.flatMap((rule) => sourceFiles(rule.from)).flatMap((file) =>
      wallBreaches(file, readFileSync(join(ROOT, file), 'utf8')),
    );
    expect(breaches, breaches.join('\n')).to.deep.equal([]);
  });

  it('sees every kind of import (the guard can fail)', () => {
    const planted = [
      "import { createApp } from '../../host/app.js';",
      "import type { HostInternals } from '../../host/internals.js';",
      "export { nextNumber } from '../../host/numbers.js';",
      "const loader = await import('../../host/plugins/plugin-loader.js');",
      "import '../../host/logger.js';",
    ];
    for (const line of planted) expect(wallBreaches('src/plugin/budget/planted.ts', line), line).to.have.length(1);
    expect(
      wallBreaches('src/plugin/budget/planted.ts', "import type { HostRuntime } from '../../host/contract.js';"),
    ).to.deep.equal([]);
    expect(
      wallBreaches(
        'migrations/plugin/099_planted.ts',
        "import { idColumn } from '../../src/host/db/schema-helpers.js';",
      ),
    ).to.have.length(1);
    expect(
      wallBreaches(
        'migrations/plugin/099_planted.ts',
        "import type { HostRuntime } from '../../src/host/contract.js';",
      ),
    ).to.have.length(1);
    expect(
      wallBreaches('src/host/catalog/planted.ts', "import { BUDGETS } from '../../plugin/budget/repository.js';"),
    ).to.have.length(1);
    expect(
      wallBreaches('src/lib/planted.ts', "import type { HostInternals } from '../host/internals.js';"),
    ).to.have.length(1);
  });

  it('keeps the Vendure adapter off the reference host: the contract and the shared kit only', () => {
    for (const line of [
      "import { requireCustomer } from '../../host/checkout/cart-service.js';",
      "import type { CustomerRow } from '../../host/customer/rows.js';",
      "const app = await import('../../host/app.js');",
    ])
      expect(wallBreaches('src/adapters/vendure/planted.ts', line), line).to.have.length(1);
    for (const line of [
      "import type { StoreContext } from '../../host/contract.js';",
      "import { requireCustomer } from '../../host-kit/cart-rules.js';",
      "import { createDb } from '../../lib/db.js';",
    ])
      expect(wallBreaches('src/adapters/vendure/planted.ts', line), line).to.deep.equal([]);
    expect(wallBreaches('src/host-kit/planted.ts', "import { createApp } from '../host/app.js';")).to.have.length(1);
    expect(
      wallBreaches('src/host-kit/planted.ts', "import type { HostRuntime } from '../host/contract.js';"),
    ).to.deep.equal([]);
  });

  it("imports Vendure's internals (@vendure/core/dist) in one adapter file only", () => {
    const internal = sourceFiles('src/adapters').filter((file) =>
      importsOf(readFileSync(join(ROOT, file), 'utf8')).some((specifier) => specifier.startsWith('@vendure/core/dist')),
    );
    expect(internal).to.deep.equal([VENDURE_PATCH_FILE]);
  });
});

/** The add-on (first folder under src/plugin) a project-relative file belongs to, or null. */
function addOnOf(path: string): string | null {
  const match = /^src\/plugin\/([^/]+)\//.exec(path);
  return match?.[1] ?? null;
}

/** Add-on → the add-ons its files import. */
function addOnGraph(files: ReadonlyArray<{ file: string; source: string }>): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const { file, source } of files) {
    const from = addOnOf(file);
    if (!from) continue;
    const edges = graph.get(from) ?? new Set<string>();
    graph.set(from, edges);
    for (const specifier of importsOf(source)) {
      const target = resolveSpecifier(file, specifier);
      const to = target && addOnOf(target);
      if (to && to !== from) edges.add(to);
    }
  }
  return graph;
}

/** Every cycle's path (a → b → a), found by depth-first search. */
function cyclesOf(graph: Map<string, Set<string>>): string[] {
  const cycles: string[] = [];
  const done = new Set<string>();
  const visit = (node: string, path: string[]) => {
    if (path.includes(node)) {
      cycles.push([...path.slice(path.indexOf(node)), node].join(' → '));
      return;
    }
    if (done.has(node)) return;
    for (const next of graph.get(node) ?? []) visit(next, [...path, node]);
    done.add(node);
  };
  for (const node of graph.keys()) visit(node, []);
  return cycles;
}

describe('architecture: add-ons depend one way', () => {
  it('no add-on imports another that imports it back (directly or around a circle)', () => {
    const files = sourceFiles('src/plugin').map((file) => ({ file, source: readFileSync(join(ROOT, file), 'utf8') }));
    const cycles = cyclesOf(addOnGraph(files));
    expect(cycles, cycles.join('\n')).to.deep.equal([]);
  });

  it('sees a cycle when one is planted (the guard can fail)', () => {
    const planted = [
      { file: 'src/plugin/budget/service.ts', source: "import { x } from '../order-approval/errors.js';" },
      { file: 'src/plugin/order-approval/use-cases/create.ts', source: "import { y } from '../../budget/service.js';" },
      { file: 'src/plugin/company/directory.ts', source: "import { z } from '../employee/repository.js';" },
    ];
    expect(cyclesOf(addOnGraph(planted))).to.have.length(1);
    expect(cyclesOf(addOnGraph(planted.slice(1)))).to.deep.equal([]);
  });
});

describe('architecture: knex through its public API only (issue 31)', () => {
  /** knex's private modules, patched prototypes, code generated at run time: what a knex (or driver) release may break unannounced. */
  const FORBIDDEN: Array<{ what: string; pattern: RegExp }> = [
    { what: 'an import of knex internals', pattern: /knex\/lib/ },
    { what: 'a prototype patch', pattern: /prototype\./ },
    { what: 'generated code', pattern: /new Function\b|\beval\(/ },
  ];

  it('src imports nothing of knex/lib, patches no prototype and generates no code', () => {
    const found: string[] = [];
    // Every file under src, declaration files included (a `declare module 'knex/lib/…'` counts): what `grep -rn` sees.
    const files = readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8', withFileTypes: false }).map((f) =>
      join('src', f),
    );
    for (const file of files.filter((f) => statSync(join(ROOT, f)).isFile())) {
      const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
      lines.forEach((line, index) => {
        for (const { what, pattern } of FORBIDDEN)
          if (pattern.test(line)) found.push(`${file}:${index + 1} ${what}: ${line.trim().slice(0, 120)}`);
      });
    }
    expect(found).to.deep.equal([]);
  });
});
