import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// Test code: compiled only by each package's tsconfig.test.json, never into the dist/ that ships
// (docs/testing.md). The production tsconfig.json files exclude the same paths.
const TEST_CODE = [
  '**/*.test.ts',
  '**/test-support/**',
  '**/bench/**',
  '**/*.cases.ts',
  '**/fake-*.ts',
  'infra/launcher/src/repo-docs/**',
];

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/dist-test/**',
      '**/node_modules/**',
      '**/coverage/**',
      '.data/**',
      '**/*.js',
      '**/*.mjs',
      'packages/client/src/generated/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    // Production code never imports test code: if it did, tsc would compile the imported file into
    // dist/ despite the exclusion, and the test code would ship.
    files: [
      'packages/*/src/**/*.ts',
      'services/*/src/**/*.ts',
      'infra/launcher/src/**/*.ts',
      'infra/monitoring/src/**/*.ts',
    ],
    ignores: [...TEST_CODE, 'packages/test-harness/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '**/test-support',
                '**/test-support/**',
                '**/bench',
                '**/bench/**',
                '**/fake-*',
                '**/*.cases',
              ],
              message: 'Test code does not ship: production files do not import it (docs/testing.md).',
            },
            {
              group: ['@trackline/test-harness', '@trackline/test-harness/**', '@trackline/*/dist-test/**'],
              message: 'Test code does not ship: production files do not import it (docs/testing.md).',
            },
          ],
        },
      ],
    },
  },
);
