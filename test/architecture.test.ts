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
interface Rule {
  /** Files the rule applies to (project-relative folder). */
  from: string;
  /** What they may not import: project-relative folders. */
  forbidden: string[];
}

/**
 * src/contract is the plugin's port: every side may import it, and it imports nothing but src/lib
 * (the types it exposes), so no side reaches another through it.
 */
export const WALL: Rule[] = [
  { from: 'src/contract', forbidden: ['src/host', 'src/host-kit', 'src/adapters', 'src/plugin', 'migrations'] },
  { from: 'src/plugin', forbidden: ['src/host', 'src/host-kit', 'src/adapters'] },
  { from: 'migrations/plugin', forbidden: ['src/host', 'src/plugin'] },
  {
    from: 'src/lib',
    forbidden: ['src/contract', 'src/host', 'src/host-kit', 'src/adapters', 'src/plugin', 'migrations'],
  },
  { from: 'src/host-kit', forbidden: ['src/host', 'src/adapters', 'src/plugin', 'migrations'] },
  { from: 'src/host', forbidden: ['src/plugin', 'migrations/plugin', 'src/adapters'] },
  { from: 'src/adapters', forbidden: ['src/host', 'src/plugin', 'migrations/plugin'] },
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
      if (!target) continue;
      const folder = rule.forbidden.find((f) => inside(target, f));
      if (folder) breaches.push(`${file} imports ${specifier} (${target}): ${rule.from} may not import ${folder}`);
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
      wallBreaches('src/plugin/budget/planted.ts', "import type { HostRuntime } from '../../contract/index.js';"),
    ).to.deep.equal([]);
    expect(
      wallBreaches(
        'src/plugin/quantity-rule/planted.ts',
        "import { CART_LIMITS } from '../../host-kit/cart-rules.js';",
      ),
      "the plugin imports nothing of the hosts' kit",
    ).to.have.length(1);
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
    expect(
      wallBreaches('src/contract/planted.ts', "import type { HostInternals } from '../host/internals.js';"),
      'the contract names nothing of a host',
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
      "import type { StoreContext } from '../../contract/index.js';",
      "import { requireCustomer } from '../../host-kit/cart-rules.js';",
      "import { createDb } from '../../lib/db.js';",
    ])
      expect(wallBreaches('src/adapters/vendure/planted.ts', line), line).to.deep.equal([]);
    expect(wallBreaches('src/host-kit/planted.ts', "import { createApp } from '../host/app.js';")).to.have.length(1);
    expect(
      wallBreaches('src/host-kit/planted.ts', "import type { HostRuntime } from '../contract/index.js';"),
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

describe('architecture: knex through its public API only (decision 0020)', () => {
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

/**
 * Inside the plugin, an add-on is a unit with one front door: its SQL lives in its repositories
 * (`repository.ts` or a `repository/` folder) and other add-ons import it through its `index.ts` only.
 */
const isRepository = (file: string) => /(^|\/)repository(\.ts$|\/)/.test(file);

/**
 * Queries a file starts: a call of an executor (`executor(…)`, `trx(…)`, `db(…)`, `host.db(…)`, …) with a
 * table name or table constant, `.raw(` and `.transaction(`. A heuristic on the text, tuned on this code base.
 */
export function queriesStarted(source: string): number {
  const pattern =
    /\b(?:executor|trx|db|knex|tx|exec|runner|this\.executor|this\.db|host\.db|ctx\.db)\(\s*(?:['"`]|[A-Z][A-Z0-9_]{2,}\b)|\.raw\(|\.transaction\(/g;
  return source.match(pattern)?.length ?? 0;
}

/** Imports of another add-on's files other than its index.ts. */
export function importsPastIndex(file: string, source: string): string[] {
  const from = addOnOf(file);
  if (!from) return [];
  return importsOf(source).filter((specifier) => {
    const target = resolveSpecifier(file, specifier);
    const to = target && addOnOf(target);
    return !!to && to !== from && target !== `src/plugin/${to}/index.ts`;
  });
}

/** Per file of src/plugin, the queries started outside a repository and the imports past another add-on's index.ts. */
function breaches(): { queries: string[]; imports: string[] } {
  const found = { queries: [] as string[], imports: [] as string[] };
  for (const file of sourceFiles('src/plugin')) {
    const source = readFileSync(join(ROOT, file), 'utf8');
    const queries = isRepository(file) ? 0 : queriesStarted(source);
    if (queries) found.queries.push(`${file}: ${queries}`);
    for (const specifier of importsPastIndex(file, source)) found.imports.push(`${file}: ${specifier}`);
  }
  return found;
}

describe('architecture: add-ons meet only at their front doors', () => {
  const found = breaches();

  it('starts no query outside a repository', () => {
    expect(found.queries, "move these queries into the add-on's repository").to.deep.equal([]);
  });

  it('imports another add-on only through its index.ts', () => {
    expect(found.imports, "import these through the add-on's index.ts").to.deep.equal([]);
  });

  it('sees a planted query and a planted import past an index (the guards can fail)', () => {
    expect(queriesStarted("const rows = await executor('b2b_budgets').where({ id });")).to.equal(1);
    expect(queriesStarted('await trx(BUDGETS).insert(row);')).to.equal(1);
    expect(queriesStarted("await host.db.raw('select 1');")).to.equal(1);
    expect(queriesStarted('const budgets = await budgetsOf(executor, customerId);')).to.equal(0);
    expect(
      importsPastIndex(
        'src/plugin/budget/service.ts',
        "import { lockBudgets } from '../order-approval/repository.js';",
      ),
    ).to.have.length(1);
    expect(
      importsPastIndex('src/plugin/budget/service.ts', "import { approvals } from '../order-approval/index.js';"),
    ).to.deep.equal([]);
    expect(
      importsPastIndex('src/plugin/budget/service.ts', "import { lockBudgets } from './repository.js';"),
    ).to.deep.equal([]);
  });
});

/**
 * Pages call routes as values (`call(ctx, routes.readOffer, …)`, `kit.call(ctx, HOST_ADMIN_ROUTES.readCustomer, …)`),
 * typed from the route's schemas; an operationId string in a call compiles against nothing. The calls
 * of `file`'s source that name a route by a string or template literal: a `call` or `.call` whose
 * second argument is one, or the console's `call`/`has` given one.
 */
export function operationIdCalls(file: string, source: string): string[] {
  const found: string[] = [];
  const stringLike = (node: ts.Node | undefined) =>
    !!node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node));
  const visit = (node: ts.Node, sourceFile: ts.SourceFile) => {
    if (ts.isCallExpression(node)) {
      const callee = node.expression.getText(sourceFile);
      const named =
        (/(^|\.)call$/.test(callee) && stringLike(node.arguments[1])) ||
        (/(^|\.)console\.(call|has)$/.test(callee) && node.arguments.slice(0, 2).some(stringLike));
      if (named) {
        const { line } = sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile));
        found.push(`${file}:${line + 1}: ${node.getText(sourceFile).split('\n')[0]}`);
      }
    }
    ts.forEachChild(node, (child) => visit(child, sourceFile));
  };
  const sourceFile = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  visit(sourceFile, sourceFile);
  return found;
}

describe('architecture: pages call routes as values, not by operationId strings', () => {
  it('no call anywhere in src (plugin, host, host-kit, adapters, lib, contract) names its route by a string', () => {
    const files = sourceFiles('src');
    for (const folder of ['plugin', 'host', 'host-kit', 'adapters', 'lib', 'contract'])
      expect(
        files.some((file) => file.startsWith(join('src', folder, '/'))),
        `src/${folder} is scanned`,
      ).to.equal(true);
    const found = files.flatMap((file) => operationIdCalls(file, readFileSync(join(ROOT, file), 'utf8')));
    expect(
      found,
      `call the route value instead (routesByName, routeRefs, HOST_ADMIN_ROUTES, HOST_STORE_ROUTES):\n${found.join('\n')}`,
    ).to.deep.equal([]);
  });

  it('sees a planted call by operationId (the guard can fail)', () => {
    for (const file of ['src/plugin/budget/planted.ts', 'src/host/storefront/planted.ts']) {
      for (const line of [
        "const cart = await call<CartView>(ctx, 'readCart');",
        "await call(ctx, 'readCart', { body: {} });",
        "const list = await kit.call(ctx, 'listSuiteQuantityRules', { query: {} });",
        'await kit.call(ctx, `create${kind.stem}`, { body });',
        "if (kit.console.has('listCustomerGroup')) return [];",
        "await host.console.call(ctx.console, 'readCustomer', { params });",
      ])
        expect(operationIdCalls(file, line), line).to.have.length(1);
      for (const line of [
        'const cart = await call(ctx, routes.readCart);',
        'await kit.call(ctx, HOST_ADMIN_ROUTES.readCustomer, { params: { id } });',
        'const cart = await kit.call(ctx, HOST_STORE_ROUTES.readCart);',
        'if (kit.console.has(routes.listCompanyEmployees)) return [];',
        "const rows = await call(ctx, kind.list, { query: { state: 'failed' } });",
      ])
        expect(operationIdCalls(file, line), line).to.deep.equal([]);
    }
  });
});

describe('architecture: no function over 150 lines anywhere in src', () => {
  it('the lint rule covers every folder of src and fails on a planted 151-line function (the guard can fail)', async function () {
    this.timeout(60_000);
    const { ESLint } = await import('eslint');
    const project = new ESLint({ cwd: ROOT });
    for (const file of [
      'src/host/planted.ts',
      'src/host-kit/planted.ts',
      'src/lib/planted.ts',
      'src/adapters/vendure/planted.ts',
      'src/plugin/budget/planted.ts',
      'src/server.ts',
    ]) {
      const config = (await project.calculateConfigForFile(join(ROOT, file))) as { rules: Record<string, unknown> };
      expect(config.rules['max-lines-per-function'], file).to.deep.equal([
        2,
        { max: 150, skipBlankLines: true, skipComments: true },
      ]);
    }
    const body = Array.from({ length: 151 }, (_, i) => `  const v${i} = ${i};`).join('\n');
    const planted = `export function planted(): void {\n${body}\n}\n`;
    const onlyThatRule = new ESLint({
      cwd: ROOT,
      overrideConfigFile: true,
      overrideConfig: [
        { rules: { 'max-lines-per-function': ['error', { max: 150, skipBlankLines: true, skipComments: true }] } },
      ],
    });
    const [result] = await onlyThatRule.lintText(planted.replace(/: void/, ''), { filePath: join(ROOT, 'planted.js') });
    expect(result!.messages.map((m) => m.ruleId)).to.deep.equal(['max-lines-per-function']);
  });
});
