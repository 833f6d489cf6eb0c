// ESLint (flat config) with typescript-eslint's type-aware rules. Formatting is Prettier's job
// (.prettierrc.json); nothing here is about layout. `npm run lint` runs it over the whole tree.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      '.build/**',
      'docs/**',
      'coverage/**',
      'node_modules/**',
      '.converge/**',
      'tests/package/consumer/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['*.js', '*.config.ts', 'bin/*.mjs', 'tests/setup/*.mjs'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // An async engine: a promise nobody awaits is a lost error or a race.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/only-throw-error': 'error',
      // Handlers are async to meet an interface, whether or not they await.
      '@typescript-eslint/require-await': 'off',
      // \`xs[0]!\` documents that an index is known to exist; kept even where the compiler agrees.
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
      // zod, JSON and wire data are `unknown`/`any`-shaped by nature; these fire on every parse.
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/restrict-template-expressions': [
        'error',
        { allowNumber: true, allowBoolean: true, allowNullish: true },
      ],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-throw-literal': 'off',
    },
  },
  {
    // The library: no console, no process.exit (STYLE.md); files stay readable.
    files: ['src/**/*.ts'],
    rules: {
      'no-console': 'error',
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'exit', message: 'src/ never exits the process: throw an error.' },
      ],
      'max-lines': ['error', { max: 300, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    // Tests, scripts, examples and benchmarks print and exit as programs do.
    files: ['tests/**/*.ts', 'scripts/**/*.ts', 'examples/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/unbound-method': 'off',
      // Fakes reject with an AbortSignal's reason, or a value a test says must pass through as given.
      '@typescript-eslint/prefer-promise-reject-errors': 'off',
      // Assertion messages and fixtures print whatever a test holds.
      '@typescript-eslint/restrict-template-expressions': 'off',
      '@typescript-eslint/no-base-to-string': 'off',
      '@typescript-eslint/no-unsafe-enum-comparison': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.cjs', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
    // Plain Node scripts (bin/converge.mjs): the Node globals they use.
    languageOptions: { globals: { process: 'readonly', URL: 'readonly', console: 'readonly' } },
  },
);
