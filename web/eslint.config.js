// The web's lint gate (issue 11), run by `npm run lint` with `tsc` and by
// `make test`: typescript-eslint with type information, the rules of hooks
// (and the React Compiler's checks), jsx-a11y, and the import direction of
// decision 012: shared code (components/, lib/) → features → app, and no
// feature reaching into another.
import js from '@eslint/js';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/** Imports a folder of `src/` may not make; `depth` is how far below `src/` its files sit. */
const forbidden = (depth, folders, message) => ({
  'no-restricted-imports': [
    'error',
    { patterns: [{ regex: `^${'\\.\\./'.repeat(depth)}(${folders.join('|')})/`, message }] },
  ],
});

export default tseslint.config(
  { ignores: ['dist/', 'test-results/', 'src/generated/'] },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  reactHooks.configs.flat.recommended,
  jsxA11y.flatConfigs.recommended,
  {
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: ['eslint.config.js'] }, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'smart'],
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    // A feature uses shared code and its own files, never another feature's.
    files: ['src/features/**'],
    rules: forbidden(1, ['[a-z-]+'], 'A feature imports shared code (components/, lib/), not another feature (decision 012).'),
  },
  { files: ['src/lib/**'], rules: forbidden(1, ['features', 'app'], 'lib/ is shared: it imports no feature and no app code.') },
  {
    files: ['src/components/**'],
    rules: forbidden(2, ['features', 'app'], 'components/ is shared: it imports no feature and no app code.'),
  },
  {
    // `act(async () => …)` is React's way to let promises settle inside a
    // test, and fakes answer `async () => response`: no await needed there.
    files: ['src/**/*.test.{ts,tsx}'],
    rules: { '@typescript-eslint/require-await': 'off' },
  },
  {
    files: ['**/*.js', '**/*.config.ts'],
    extends: [tseslint.configs.disableTypeChecked],
  },
);
