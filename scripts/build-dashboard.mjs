// `npm run build:dashboard`: Vendure's Dashboard with the Suite B2B extension, built by Vite with
// Vendure's own plugin (vendureDashboardPlugin) into var/dashboard (served by the example shop's
// DashboardPlugin). Prints the seconds it took.
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
  logLevel: process.env.DASHBOARD_BUILD_QUIET ? 'warn' : 'info',
  build: { outDir, emptyOutDir: true },
  plugins: [
    vendureDashboardPlugin({
      vendureConfigPath: join(root, 'examples', 'vendure-shop', 'dashboard', 'vendure-config.ts'),
      tempCompilationDir: join(root, 'var', 'dashboard-build'),
      api: { host: 'auto', port: 'auto' },
    }),
  ],
});
process.stdout.write(`Dashboard built into ${outDir} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
