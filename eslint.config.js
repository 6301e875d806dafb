import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// Type-aware rules (issue 8 item 2: recommendedTypeChecked, no-explicit-any) cover all of src/ but the
// Vendure adapter files not typed yet (below); every route handler takes schema-derived input types.
// The Vendure adapter's files with typed Vendure rows (issue 13); the others join as they are typed.
const typedVendure = ['addresses', 'cart', 'catalog', 'customers', 'events', 'infra', 'place-order', 'prices', 'product-search', 'shared-transaction', 'shop-visibility'].map((name) => `src/adapters/vendure/${name}.ts`);
const typed = ['src/host/**/*.ts', 'src/lib/**/*.ts', 'src/plugin/**/*.ts', 'src/server.ts', 'src/cli.ts', ...typedVendure];

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
