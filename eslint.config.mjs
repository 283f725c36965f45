// ESLint (flat config): typescript-eslint's recommended rules, tuned where the code deliberately differs,
// and the repo's import boundaries (tools/eslint/import-boundaries.mjs). `npm run lint` runs it, then prettier --check.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import boundaries from './tools/eslint/import-boundaries.mjs';

/** Node's globals, for the plain JavaScript files (TypeScript checks its own files' names). */
const nodeGlobals = Object.fromEntries(['process', 'console', 'URL', 'Buffer', 'setTimeout', 'clearTimeout', 'module', 'require', '__dirname', '__filename'].map((name) => [name, 'readonly']));

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '.local/**', 'coverage/**', 'libs/database/src/generated/**', 'libs/sdk-cordova/www/bot-chat.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { platform: boundaries },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      'platform/import-boundaries': 'error',
      // `_name` marks what a destructuring leaves out on purpose (`{ secret: _s, ...rest }`).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      // A `let` read by a callback before its one assignment (a handler set up before the object it uses), and
      // destructurings where only some names are reassigned, stay `let`.
      'prefer-const': ['error', { destructuring: 'all', ignoreReadBeforeAssign: true }],
    },
  },
  {
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: { globals: nodeGlobals },
  },
  {
    files: ['**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' }, // CommonJS by definition (Jest's transform hook)
  },
  {
    files: ['**/*.spec.ts', '**/*.e2e-spec.ts', 'test/**/*.ts', '**/*.fast-check.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' }, // tests feed deliberately ill-typed values to the code under test
  },
);
