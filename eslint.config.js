// Lint rules: the recommended sets plus the layers (scripts/lint-layers.js), which import-x checks on resolved
// paths, so an import is judged by the file it reaches, however its relative path is spelled.
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';
import { layerBlocks } from './scripts/lint-layers.js';

export default tseslint.config(
  { ignores: ['node_modules/**', 'coverage/**', 'out/**', 'reports/**', 'dist/**', '.stryker-tmp/**'] },
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
  {
    files: ['**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      // Sources import each other as `.js` (ESM), the files on disk are `.ts`.
      'import-x/resolver-next': [createNodeResolver({ extensionAlias: { '.js': ['.ts', '.js'] } })],
    },
  },
  ...layerBlocks(import.meta.dirname),
);
