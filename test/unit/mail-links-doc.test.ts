import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The guide's "Links in the plugin's mails" (docs/vendure-guide.md) is what a Vendure storefront builds
 * its routes from: every mail template that carries a link is in its table, every storefront path the
 * plugin builds a link on (`host.storefront.url(…)`, `storefrontLink(…)`) is written in that section,
 * and every row names templates that exist and carry a link, a path the plugin builds and GraphQL
 * fields the Shop API has.
 */
const ROOT = join(import.meta.dirname, '..', '..');
const read = (...parts: string[]) => readFileSync(join(ROOT, ...parts), 'utf8');
const SECTION = "## Links in the plugin's mails";

/** Mails whose link Vendure leaves out: the order confirmation's `orderUrl` is null there (src/adapters/vendure/mail.ts). */
const NO_LINK_ON_VENDURE = ['order-confirmation'];
/** Where `storefrontLink` (the mechanism the employee add-on's links go through) is defined. */
const STOREFRONT_LINK = join('src', 'plugin', 'employee', 'common.ts');

export interface MailLinkRow {
  path: string;
  templates: string[];
  fields: string[];
}

/** A path's shape: `${…}` and `<…>` placeholders as `<>`. */
export const shape = (path: string) => path.replace(/\$\{[^}]*\}|<[^>]*>/g, '<>');

/** The section of the guide and its table's rows (`order-approval-requested`, `-reminder` → `order-approval-reminder`). */
export function mailLinksSection(guide: string): { text: string; rows: MailLinkRow[] } {
  const start = guide.indexOf(SECTION);
  if (start < 0) return { text: '', rows: [] };
  const next = guide.indexOf('\n## ', start + SECTION.length);
  const text = guide.slice(start, next < 0 ? undefined : next);
  const rows: MailLinkRow[] = [];
  for (const line of text.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    if (cells.length < 5 || !cells[1]!.startsWith('`/')) continue;
    const names = [...cells[2]!.matchAll(/`([a-z-]+)`/g)].map((m) => m[1]!);
    const first = names[0] ?? '';
    const stem = first.slice(0, first.lastIndexOf('-'));
    rows.push({
      path: /`([^`]+)`/.exec(cells[1]!)![1]!,
      templates: names.map((name) => (name.startsWith('-') ? `${stem}${name}` : name)),
      fields: [...cells[3]!.matchAll(/`([a-zA-Z0-9]+)\(/g)].map((m) => m[1]!),
    });
  }
  return { text, rows };
}

/** Template names (without `.html.hbs` / `.text.hbs`) whose body prints a link (a URL variable or an http(s) href). */
export function templatesWithLinks(files: Array<{ name: string; text: string }>): Set<string> {
  const link = /href="(?!mailto:)|\{\{\{?\s*[\w.]*(?:url|Url|link)\s*\}?\}\}/;
  return new Set(
    files
      .filter((file) => /\.(html|text)\.hbs$/.test(file.name) && link.test(file.text))
      .map((file) => file.name.replace(/\.(html|text)\.hbs$/, '')),
  );
}

/**
 * The storefront paths a source file builds links on: the path argument of `storefront.url(channel, path)` and
 * `storefrontLink(host, channel, path, …)`, a string or template literal, or a call of a function of the same
 * file that returns one (`eventPath(event.id)`).
 */
export function linkPaths(source: string): string[] {
  const calls =
    /(?:storefront\.url\(\s*[^,()]+,|(?<!function )storefrontLink\(\s*[^,()]+,\s*[^,()]+,)\s*([^,)]+(?:\([^)]*\))?)/g;
  const paths: string[] = [];
  for (const [, argument] of source.matchAll(calls)) {
    const literal = /^(['`])(\/[^'`]*)\1$/.exec(argument!.trim());
    if (literal) {
      paths.push(literal[2]!);
      continue;
    }
    const called = /^(\w+)\(/.exec(argument!.trim());
    const returned = called
      ? new RegExp(`function ${called[1]}\\([^)]*\\)[^{]*\\{\\s*return (['\`])(\\/[^'\`]*)\\1`).exec(source)
      : null;
    paths.push(returned ? returned[2]! : `(not a path: ${argument!.trim()})`);
  }
  return paths;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => join(dir, file));
}

describe('docs: the mail links a Vendure storefront needs (vendure-guide.md, "Links in the plugin\'s mails")', () => {
  const { text, rows } = mailLinksSection(read('docs', 'vendure-guide.md'));
  const templateFiles = readdirSync(join(ROOT, 'templates', 'mail')).map((name) => ({
    name,
    text: read('templates', 'mail', name),
  }));
  const linking = templatesWithLinks(templateFiles);
  // Mail links, not the plugin's own storefront pages (src/plugin/*/storefront: the reference host's, not mailed);
  // storefrontLink itself hands its caller's path on to storefront.url.
  const built = sourceFiles(join('src', 'plugin'))
    .filter((file) => !file.split(/[\\/]/).includes('storefront'))
    .flatMap((file) => linkPaths(read(file)).map((path) => ({ file, path })))
    .filter(({ file, path }) => !(file === STOREFRONT_LINK && path === '(not a path: path)'));

  it('has the table, and the plugin builds links', () => {
    expect(rows.length).to.be.greaterThan(5);
    expect(linking.size).to.be.greaterThan(5);
    expect(built.length).to.be.greaterThan(5);
  });

  it('lists every mail template that carries a link in the table', () => {
    const listed = new Set(rows.flatMap((row) => row.templates));
    const missing = [...linking].filter((name) => !listed.has(name) && !NO_LINK_ON_VENDURE.includes(name));
    expect(missing, `templates with a link the table does not list: ${missing.join(', ')}`).to.deep.equal([]);
    expect(read('src', 'adapters', 'vendure', 'mail.ts')).to.contain('orderUrl: null');
    for (const name of NO_LINK_ON_VENDURE) expect(text).to.contain(`\`${name}\``);
  });

  it('writes every storefront path the plugin builds a link on in the section', () => {
    const written = new Set([...text.matchAll(/`(\/account[^`]*)`/g)].map((m) => shape(m[1]!)));
    const missing = built.filter(({ path }) => !written.has(shape(path))).map(({ file, path }) => `${path} (${file})`);
    expect(missing, `paths the guide does not list: ${missing.join(', ')}`).to.deep.equal([]);
  });

  it('names in each row templates that carry a link, a path the plugin builds and Shop API fields that exist', () => {
    const paths = new Set(built.map(({ path }) => shape(path)));
    const schema = read('docs', 'graphql', 'shop-api.graphql');
    const wrong: string[] = [];
    for (const row of rows) {
      if (!paths.has(shape(row.path))) wrong.push(`${row.path}: no link is built on it`);
      for (const name of row.templates) if (!linking.has(name)) wrong.push(`${row.path}: ${name} carries no link`);
      for (const field of row.fields)
        if (!new RegExp(`^  ${field}\\(`, 'm').test(schema)) wrong.push(`${row.path}: no Shop API field ${field}`);
    }
    expect(wrong, wrong.join('\n')).to.deep.equal([]);
  });

  it('sees a missing template, a path built in another way and an abbreviated name (the check can fail)', () => {
    const planted = [
      SECTION,
      '',
      '| path | mail | what |',
      '|---|---|---|',
      '| `/account/a/<id>` | `x-one` (1 day), `-two` | `doIt(id: "<id>")` |',
      '',
      '## Next',
    ].join('\n');
    expect(mailLinksSection(planted).rows).to.deep.equal([
      { path: '/account/a/<id>', templates: ['x-one', 'x-two'], fields: ['doIt'] },
    ]);
    expect(
      [
        ...templatesWithLinks([
          { name: 'a.html.hbs', text: '<a href="{{thing.url}}">' },
          { name: 'b.text.hbs', text: '{{link}}' },
          { name: 'c.html.hbs', text: '<a href="mailto:{{email}}">' },
          { name: 'd.subject.hbs', text: '{{link}}' },
        ]),
      ].sort(),
    ).to.deep.equal(['a', 'b']);
    const source = [
      'const a = host.storefront.url(salesChannel, `/account/x/${id}`);',
      "const b = storefrontLink(host, ctx.salesChannel, '/account/y', body.storefrontUrl);",
      'const c = host.storefront.url(salesChannel, zPath(id));',
      'export function zPath(id: string): string {\n  return `/account/z/${id}`;\n}',
      'const d = host.storefront.url(salesChannel, somewhere);',
    ].join('\n');
    expect(linkPaths(source)).to.deep.equal([
      '/account/x/${id}',
      '/account/y',
      '/account/z/${id}',
      '(not a path: somewhere)',
    ]);
    expect(shape('/account/x/${id}')).to.equal(shape('/account/x/<the id>'));
  });
});
