// `npm run build`: dist/ mirrors the repository's layout (dist/src, dist/migrations, dist/templates,
// dist/plugin.json), so every path the running code resolves relative to its own file
// (src/host-kit/paths.ts, the plugin's templates) finds in dist what it finds in the repository.
import { execFileSync } from 'node:child_process';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const dist = join(root, 'dist');

// A migration removed from the repository must not stay in dist and run there.
rmSync(dist, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit', cwd: root });
cpSync(join(root, 'templates'), join(dist, 'templates'), { recursive: true });
// The Vendure Dashboard extension ships as source: the shop's Dashboard build (Vite) compiles it.
const dashboard = join('src', 'adapters', 'vendure', 'dashboard');
cpSync(join(root, dashboard), join(dist, dashboard), { recursive: true });
// The manifest's entry names the TypeScript source; dist holds its compiled module.
const manifest = JSON.parse(readFileSync(join(root, 'plugin.json'), 'utf8'));
manifest.entry = manifest.entry.replace(/\.ts$/, '.js');
writeFileSync(join(dist, 'plugin.json'), `${JSON.stringify(manifest, null, 2)}\n`);
process.stdout.write(`dist/ built (entry ${manifest.entry})\n`);
