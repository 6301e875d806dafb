import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// Type-aware rules (issue 8 item 2) cover the host, src/lib, the entry points, and the add-ons
// whose route handlers take schema-derived input types (defineStoreRoute / defineAdminRoute); the
// other add-ons join `typedPlugin` as they are converted.
const typedPlugin = ['src/plugin/cost-center/**/*.ts', 'src/plugin/customer-product-number/**/*.ts'];
const typed = ['src/host/**/*.ts', 'src/lib/**/*.ts', 'src/server.ts', 'src/cli.ts', ...typedPlugin];

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'var/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', URL: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'error',
    },
  },
  ...tseslint.configs.recommendedTypeChecked.map((config) => ({ ...config, files: typed })),
  {
    files: typed,
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      // Forwarding a rejection unchanged (a driver's or the awaited work's) is not inventing a non-Error reason.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
    },
  },
  // TEMPORARY (issue 8 item 2 follow-up): src/plugin stays on the untyped rules until its route
  // handlers take schema-derived types; the follow-up removes this block and adds src/plugin to
  // `typed` above. Until then row shapes and route inputs there are typed at the edges with `any`.
  {
    files: ['src/plugin/**/*.ts'],
    ignores: typedPlugin,
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  // TEMPORARY (issue 8 item 2, left open by the typelint branch): the host's storefront pages read
  // Store API responses as `View = Record<string, any>`; they get typed views when route responses
  // get schema-derived types (the same follow-up as src/plugin), and the colleague reworking the
  // storefront page pipeline owns these files now. 54 findings at the time of writing.
  // The Vendure adapter (issue 13) reads Vendure's rows and wraps Vendure's services untyped
  // (10 findings when the rule came in); typed rows for it are a follow-up of issue 13.
  {
    files: ['src/adapters/vendure/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['src/host/storefront/shop-pages.ts', 'src/host/storefront/cart-pages.ts', 'src/host/storefront/account-pages.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/require-await': 'off',
    },
  },
  // Tests, bench and migrations: untyped rules; `any` allowed for fixtures and raw rows.
  {
    files: ['test/**/*.ts', 'bench/**/*.ts', 'migrations/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-unused-expressions': 'off', 'no-console': 'off' },
  },
);
