import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';

/**
 * The documents hold: every relative link and every path written as code (`src/…`, `test/…`, …)
 * in README.md, docs/ and bench/README.md names a file or folder that exists; and no text of the
 * repository points at something outside it (an issue tracker, a design document it does not have).
 */
const ROOT = join(import.meta.dirname, '..', '..');
const TOP_FOLDERS = ['src', 'test', 'docs', 'migrations', 'templates', 'scripts', 'bench', 'examples'];

function documents(): string[] {
  const docs = readdirSync(join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md'))
    .map((f) => join('docs', f));
  // CHANGELOG.md is history: it may name files that have since moved.
  return ['README.md', 'bench/README.md', ...docs];
}

/** Broken references of one document: relative links and code paths that name nothing. */
export function brokenReferences(document: string, text: string, exists: (path: string) => boolean): string[] {
  const broken: string[] = [];
  for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target!) || target!.startsWith('#')) continue;
    const path = normalize(join(dirname(document), target!.split('#')[0]!));
    if (!exists(path)) broken.push(`${document}: link ${target}`);
  }
  const codePath = new RegExp(`\`((?:${TOP_FOLDERS.join('|')})/[^\`\\s]*)\``, 'g');
  for (const [, written] of text.matchAll(codePath)) {
    // Patterns and placeholders (`test/plugin/<addon>/`, `src/**/*.ts`) name no one file.
    if (/[*<>{}…]/.test(written!)) continue;
    const path = written!.replace(/[:#].*$/, '').replace(/[.,;]+$/, '');
    if (!exists(path)) broken.push(`${document}: path ${written}`);
  }
  return broken;
}

describe('docs: links and paths', () => {
  it('every relative link and code path in the documents names something in the repository', () => {
    const broken = documents().flatMap((doc) =>
      brokenReferences(doc, readFileSync(join(ROOT, doc), 'utf8'), (p) => existsSync(join(ROOT, p))),
    );
    expect(broken, broken.join('\n')).to.deep.equal([]);
  });

  it('sees a moved file and a dead link (the check can fail)', () => {
    const exists = (p: string) => ['docs/operations.md', 'src/lib/time.ts'].includes(relative('.', p));
    const text =
      'See [operations](operations.md), [gone](gone.md#top), `src/lib/time.ts:12`, `src/lib/old.ts` and `test/plugin/<addon>/`.';
    expect(brokenReferences('docs/guide.md', text, exists)).to.deep.equal([
      'docs/guide.md: link gone.md#top',
      'docs/guide.md: path src/lib/old.ts',
    ]);
  });
});

/** Where the repository's own text lives: what must not point outside the repository. */
const TEXT_PLACES = [...TOP_FOLDERS, 'README.md', 'CHANGELOG.md', 'plugin.json'];

/**
 * Files allowed to hold references outside the repository while other work changes them: none now.
 * Only a file that still holds some may be listed (the test below fails for one that holds none).
 */
const OUTSIDE_REFERENCES_LEFT = new Set<string>([]);

const TEXT_FILE = /\.(ts|tsx|js|mjs|cjs|json|md|hbs|html|css|sql|sh|txt|yml|yaml)$/;

/** The text files of the repository's own places (no installed or built files). */
function textFiles(): string[] {
  return TEXT_PLACES.flatMap((place) => {
    if (!existsSync(join(ROOT, place))) return [];
    if (statSync(join(ROOT, place)).isFile()) return [place];
    return readdirSync(join(ROOT, place), { recursive: true, encoding: 'utf8' })
      .map((f) => join(place, f).split(sep).join('/'))
      .filter((f) => TEXT_FILE.test(f) && !/(^|\/)(node_modules|dist)\//.test(f));
  });
}

/**
 * References of one text to something outside the repository, as `file:line: what`: an issue
 * tracker's ids ("issue N", "Issues N–M", "Issue N's", "pre-issue-N", and "#N" where a tracker id is
 * written: in brackets, after "see", "fixes", "PR" and the like, or opening a line or comment) and
 * the design document the repository does not have (DESIGN, a Markdown file). Other '#' uses are not
 * tracker ids: colours (`#996800`), anchors (`#top`), entities (`&#39;`), Handlebars blocks
 * (`{{#each}}`), a counter in a label.
 */
export function outsideReferences(file: string, text: string): string[] {
  const patterns = [
    /\bissues?[\s-]+#?\d+/gi,
    /(?:^|[([]|\/\/\s*|\*\s+|\b(?:see|fixes|fixed|closes|closed|resolves|refs?|PR|MR|pull request|ticket|bug|in|for|by|and)\s+)#\d+\b/gim,
    /\bDESIGN\.md\b/g,
  ];
  const found: string[] = [];
  text.split('\n').forEach((line, i) => {
    for (const pattern of patterns)
      for (const [match] of line.matchAll(pattern)) found.push(`${file}:${i + 1}: ${match.trim()}`);
  });
  return found;
}

describe('docs: nothing outside the repository', () => {
  let byFile = new Map<string, string[]>();
  before(() => {
    byFile = new Map(
      textFiles().map((file) => [file, outsideReferences(file, readFileSync(join(ROOT, file), 'utf8'))]),
    );
  });

  it('no text refers to an issue tracker or a design document the repository does not have', () => {
    const found = [...byFile].filter(([file]) => !OUTSIDE_REFERENCES_LEFT.has(file)).flatMap(([, refs]) => refs);
    expect(found, found.join('\n')).to.deep.equal([]);
  });

  it('lists as left only files that still hold such references (the list only shrinks)', () => {
    const clean = [...OUTSIDE_REFERENCES_LEFT].filter((file) => (byFile.get(file) ?? []).length === 0);
    expect(clean, `no reference left, remove from OUTSIDE_REFERENCES_LEFT: ${clean.join(', ')}`).to.deep.equal([]);
  });

  it('sees tracker ids and the design document, not colours, anchors or counters (the check can fail)', () => {
    // Built from parts, so that this file does not hold what it plants.
    const issue = ['iss', 'ue'].join('');
    const Issue = `I${issue.slice(1)}`;
    const hash = '#';
    const design = ['DESIGN', 'md'].join('.');
    const planted = [
      `// Packs of 12 (${issue} 41 item 3, decision 0040).`,
      `${Issue}s 4–6 and pre-${issue}-8 are gone; see ${hash}123, (${hash}45).`,
      `As ${design} §2 says.`,
      `.note { background: ${hash}fcf9e8; border: 1px solid ${hash}996800; } [top](${hash}top) &${hash}39; {{${hash}each items}} p3 ${hash}2`,
      'A decision record: [0040](decisions/0040-quantity-of-the-merged-line.md).',
    ].join('\n');
    expect(outsideReferences('src/x.ts', planted)).to.deep.equal([
      `src/x.ts:1: ${issue} 41`,
      `src/x.ts:2: ${Issue}s 4`,
      `src/x.ts:2: ${issue}-8`,
      `src/x.ts:2: see ${hash}123`,
      `src/x.ts:2: (${hash}45`,
      `src/x.ts:3: ${design}`,
    ]);
  });
});

/** The CONTRACT_VERSION constant: the one place of src/contract that names a version. */
const CONTRACT_VERSION_LINE = /^export const CONTRACT_VERSION = '[^']*';$/;

/**
 * Version history in the contract's text, as `file:line: what`: "(3.5", "(4.1, optional)", "since
 * 3.2", "in 4.0", "before 4.5", "(contract 2.2)", "built against 4.4". History lives in the
 * CHANGELOG's Contract section; the contract says what a member is, and whether a host may leave it
 * out. The CONTRACT_VERSION line is not history.
 */
export function contractHistory(file: string, text: string): string[] {
  const pattern = /\(\s*\d+\.\d+|\b(?:since|in|before|after|until|from|against|contract|version)\s+v?\d+\.\d+/gi;
  const found: string[] = [];
  text.split('\n').forEach((line, i) => {
    if (CONTRACT_VERSION_LINE.test(line.trim())) return;
    for (const [match] of line.matchAll(pattern)) found.push(`${file}:${i + 1}: ${match}`);
  });
  return found;
}

describe('docs: the contract carries no version history', () => {
  it('no comment in src/contract names the version a member came in (the CHANGELOG does)', () => {
    const found = readdirSync(join(ROOT, 'src', 'contract'))
      .filter((f) => f.endsWith('.ts'))
      .flatMap((f) => contractHistory(`src/contract/${f}`, readFileSync(join(ROOT, 'src', 'contract', f), 'utf8')));
    expect(found, found.join('\n')).to.deep.equal([]);
  });

  it('sees version notes, not the version constant or other numbers (the check can fail)', () => {
    const clean = [
      "export const CONTRACT_VERSION = '4.5.0';",
      '/** Optional for a host: without it the plugin reads the counter itself (since a moment, at most 200). */',
      '/** A 400 (SUITE__UNKNOWN_COUNTRY); ISO 3166-1 alpha-2; 0 when its row is missing. */',
    ];
    const history = [
      '/** (3.5) What a plugin adds to the products buyers see. */',
      '/** (4.1, optional) Narrows the methods; since 3.2 read with the context, in 4.0 made optional. */',
      '/** @deprecated since 4.5: give the route; a bare operationId before 4.5 (contract 2.2, built against 4.4). */',
    ];
    expect(contractHistory('src/contract/x.ts', clean.join('\n'))).to.deep.equal([]);
    expect(contractHistory('src/contract/x.ts', [...clean, ...history].join('\n'))).to.deep.equal([
      'src/contract/x.ts:4: (3.5',
      'src/contract/x.ts:5: (4.1',
      'src/contract/x.ts:5: since 3.2',
      'src/contract/x.ts:5: in 4.0',
      'src/contract/x.ts:6: since 4.5',
      'src/contract/x.ts:6: before 4.5',
      'src/contract/x.ts:6: contract 2.2',
      'src/contract/x.ts:6: against 4.4',
    ]);
  });
});
