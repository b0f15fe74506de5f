// ESLint (flat config): typescript-eslint's recommended rules on the product code, the tests and
// the scripts. Run by `npm run lint` (part of `npm test`). Formatting is Prettier's job (see
// scripts/lint.mjs), so no stylistic rules here.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['dist/', 'out/', 'node_modules/', 'test-results/', 'bench-out/', '.e2e-out/', 'test/e2e/workspace/', 'test/fixtures/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
  {
    // Tests load some modules at run time on purpose (playwright-core's optional native parts, node:os
    // in one test), keep literals exactly as the trace facts print them, and the UI steps share one
    // `run({ page, wb, log })` signature whether or not a step uses every part.
    files: ['test/**'],
    rules: {
      '@typescript-eslint/no-require-imports': 'off',
      'no-loss-of-precision': 'off',
      '@typescript-eslint/no-unused-expressions': ['error', { allowTernary: true }],
      '@typescript-eslint/no-unused-vars': ['error', { args: 'none', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    // The suites that run inside the extension host: CommonJS under mocha's TDD interface.
    files: ['test/e2e/suite/**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: { ...globals.node, ...globals.mocha } },
  },
  {
    // The demo's layout helper: a plain CommonJS VS Code extension, installed only into `npm start`'s profile.
    files: ['scripts/demo-layout/**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: { ...globals.node } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
