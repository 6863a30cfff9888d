// The web's lint gate (decision 011), run by `npm run lint` with `tsc` and by
// `make test`: typescript-eslint with type information, the rules of hooks
// (and the React Compiler's checks), jsx-a11y, and the import direction of
// decision 012: shared code (components/, lib/) → features → app, and no
// feature reaching into another; and decision 017's back office (src/admin/),
// which uses shared code and which no public file imports.
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

/** What the back office may not import: the public site's features and app code (its styles are shared). */
const PUBLIC_SITE = { regex: '^(\\.\\./)+(features/|app/(?!styles/))', message: 'The back office imports shared code, not the public site (decision 017).' };

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
    // The back office (decision 017) is a bundle of its own: no public file
    // imports it. A rule of its own name, so the folders' rules above stay.
    files: ['src/**'],
    ignores: ['src/admin/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [{ regex: '(^|/)admin/', message: 'Public code never imports the back office (src/admin/, decision 017).' }] },
      ],
    },
  },
  {
    // The back office uses shared code (components/, lib/) and the site's
    // styles, never the public site's features or app code.
    files: ['src/admin/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [PUBLIC_SITE] }],
    },
  },
  {
    // A back-office screen uses the back office's shared code, not another screen.
    files: ['src/admin/screens/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            PUBLIC_SITE,
            { regex: '^\\.\\./[a-z-]+/', message: 'A screen imports src/admin/components and lib, not another screen.' },
          ],
        },
      ],
    },
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
