import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// Type-aware rules (issue 8 item 2) cover the host, src/lib, the entry points, and the add-ons
// whose route handlers take schema-derived input types (defineStoreRoute / defineAdminRoute); the
// other add-ons join `typedPlugin` as they are converted.
const typedPlugin = [
  'src/plugin/cost-center/**/*.ts',
  'src/plugin/customer-product-number/**/*.ts',
  'src/plugin/budget/**/*.ts',
  'src/plugin/product-list/**/*.ts',
  'src/plugin/fast-order/**/*.ts',
  'src/plugin/customer-price/**/*.ts',
  'src/plugin/account/**/*.ts',
  'src/plugin/employee/**/*.ts',
  'src/plugin/index.ts',
  'src/plugin/declared.ts',
  'src/plugin/product-fields.ts',
  'src/plugin/storefront-kit.ts',
  'src/plugin/partial-assortment/**/*.ts',
  'src/plugin/sales-representative/**/*.ts',
  'src/plugin/order-approval/**/*.ts',
  'src/plugin/offer/**/*.ts',
  'src/plugin/event-manager/**/*.ts',
];
// The Vendure adapter's files with typed Vendure rows (issue 13); the others join as they are typed.
const typedVendure = ['addresses', 'cart', 'catalog', 'customers', 'events', 'infra', 'place-order', 'prices', 'product-search', 'shared-transaction', 'shop-visibility'].map((name) => `src/adapters/vendure/${name}.ts`);
const typed = ['src/host/**/*.ts', 'src/lib/**/*.ts', 'src/server.ts', 'src/cli.ts', ...typedPlugin, ...typedVendure];

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
  // The Vendure adapter (issue 13) reads Vendure's rows and wraps Vendure's services untyped
  // (10 findings when the rule came in); typed rows for it are a follow-up of issue 13.
  {
    files: ['src/adapters/vendure/**/*.ts'],
    ignores: typedVendure,
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
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
