// `npm run build:dashboard`: Vendure's Dashboard with the Suite B2B extension (src/adapters/vendure/dashboard),
// built by Vite with Vendure's own plugin (vendureDashboardPlugin) into var/dashboard, which the example shop's
// DashboardPlugin serves at /dashboard (decision 0034). The config it reads is a build-only one
// (examples/vendure-shop/dashboard/vendure-config.ts). DASHBOARD_BUILD_VERBOSE=1 prints Vite's log.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { vendureDashboardPlugin } from '@vendure/dashboard/vite';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const outDir = process.env.DASHBOARD_OUT_DIR ?? join(root, 'var', 'dashboard');
const started = Date.now();
await build({
  configFile: false,
  base: '/dashboard/',
  logLevel: process.env.DASHBOARD_BUILD_VERBOSE ? 'info' : 'warn',
  build: { outDir, emptyOutDir: true, chunkSizeWarningLimit: 4096 },
  plugins: [
    vendureDashboardPlugin({
      vendureConfigPath: join(root, 'examples', 'vendure-shop', 'dashboard', 'vendure-config.ts'),
      // Not the default node_modules/.cache: node_modules may be shared between checkouts.
      tempCompilationDir: join(root, 'var', 'dashboard-build'),
      api: { host: 'auto', port: 'auto' },
    }),
  ],
});
// The build succeeds without any extension when the plugin's `dashboard` entry is not found: refuse that.
const assets = join(outDir, 'assets');
const withExtension = readdirSync(assets).some(
  (name) => name.endsWith('.js') && readFileSync(join(assets, name), 'utf8').includes('suite-b2b-account-requests'),
);
if (!withExtension) {
  process.stderr.write(
    'The Dashboard was built without the Suite B2B extension (its dashboard entry was not found).\n',
  );
  process.exit(1);
}
process.stdout.write(`Dashboard built into ${outDir} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
