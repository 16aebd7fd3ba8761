// Lint rules: the recommended sets plus the import-direction guard of CONVENTIONS.md.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const restrict = (patterns) => ({
  'no-restricted-imports': ['error', { patterns }],
});

export default tseslint.config(
  { ignores: ['node_modules/**', 'coverage/**', 'out/**', 'reports/**', 'dist/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        setImmediate: 'readonly',
        URL: 'readonly',
        TextDecoder: 'readonly',
        TextEncoder: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        performance: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  // protocol/ imports nothing of ours.
  {
    files: ['protocol/**/*.ts'],
    rules: restrict([
      '../reference-harness/*',
      '../mock-backend/*',
      '../suites/*',
      '../cli/*',
      '../scripts/*',
    ]),
  },
  // The two products import only protocol/, never each other.
  {
    files: ['reference-harness/**/*.ts'],
    rules: restrict(['**/mock-backend/**', '**/suites/**', '**/cli/**', '**/scripts/**']),
  },
  {
    files: ['mock-backend/**/*.ts'],
    rules: restrict(['**/reference-harness/**', '**/suites/**', '**/cli/**', '**/scripts/**']),
  },
);
