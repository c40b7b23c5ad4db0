// Lint: eslint-plugin-obsidianmd's recommended config (the community store's own rules), plus the
// layering of ARCHITECTURE.md enforced with no-restricted-imports.
import { defineConfig, globalIgnores } from 'eslint/config';
import obsidianmd from 'eslint-plugin-obsidianmd';
import globals from 'globals';

// The plugin's own restricted imports (axios, moment …) still apply everywhere; each layer adds its own.
const baseRestricted = [
  { name: 'axios', message: 'Use requestUrl (or the providers transport) instead of axios.' },
  { name: 'node-fetch', message: 'Use the providers transport instead of node-fetch.' },
  {
    name: 'moment',
    message: "Import `moment` from 'obsidian'.",
    allowTypeImports: true,
  },
];

/** Regex lookbehind, as a literal or as a pattern string passed to RegExp. */
export const lookbehindSelectors = [
  { selector: 'Literal[regex.pattern=/\\(\\?<[=!]/]', message: 'No regex lookbehind: iOS before 16.4 cannot parse it. Match the character before instead, or scan.' },
  {
    selector: 'NewExpression[callee.name="RegExp"] > Literal[value=/\\(\\?<[=!]/]',
    message: 'No regex lookbehind: iOS before 16.4 cannot parse it. Match the character before instead, or scan.',
  },
];

const layer = (files, patterns, message) => ({
  files,
  rules: {
    '@typescript-eslint/no-restricted-imports': [
      'error',
      {
        paths: [...baseRestricted, ...(patterns.includes('obsidian') ? [{ name: 'obsidian', message }] : [])],
        patterns: patterns.filter((p) => p !== 'obsidian').map((group) => ({ group: [group], message })),
      },
    ],
  },
});

export default defineConfig([
  globalIgnores(['node_modules/', '**/*.d.mts', 'main.js', 'demo-vault/', 'test-artifacts/', 'coverage/', 'dist/']),
  ...obsidianmd.configs.recommended,
  // Type-aware linting for TypeScript (tsconfig.json covers src, test, bench); plain .mjs
  // scripts get the untyped rules only, so they need no project.
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
  },
  // Declarative settings (getSettingDefinitions) need Obsidian 1.13; minAppVersion is 1.11.4 (the
  // first with SecretStorage), so settings tabs use display() with the Setting API.
  { rules: { 'obsidianmd/settings-tab/prefer-setting-definitions': 'off' } },
  // core ← chat ← ui; providers beside chat. core is pure: no obsidian, no DOM, no upper layer.
  layer(
    ['src/core/**/*.ts'],
    ['obsidian', '**/chat/**', '**/ui/**', '**/providers/**', '**/main'],
    'src/core is the pure compaction library: it may not import obsidian, chat, ui or providers.',
  ),
  layer(
    ['src/providers/**/*.ts'],
    ['**/chat/**', '**/ui/**', '**/main'],
    'src/providers sits beside chat: it may use core, never chat or ui.',
  ),
  layer(['src/chat/**/*.ts'], ['**/ui/**', '**/main'], 'src/chat may not import the UI layer.'),
  // src/cli is the command line over the core: Node code (files, stdin, process, console output),
  // never the plugin's upper layers.
  // One exception: the saved-conversation note parser (src/chat/conversation-format.ts, pure, no
  // obsidian), so the CLI reads exactly what the plugin writes.
  {
    files: ['src/cli/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [...baseRestricted, { name: 'obsidian', message: 'src/cli runs in Node over the core.' }],
          patterns: [
            {
              group: ['**/chat/**', '!**/chat/conversation-format', '**/ui/**', '**/providers/**', '**/main'],
              message: 'src/cli runs in Node over the core: of chat it may import only conversation-format; never ui or providers.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/cli/**/*.ts'],
    languageOptions: { globals: { ...globals.node } },
    rules: {
      'obsidianmd/no-nodejs-modules': 'off',
      'no-console': 'off',
    },
  },
  // No regex lookbehind in plugin code: iOS and iPadOS before 16.4 cannot parse it, and one such
  // literal anywhere in main.js stops the whole plugin from loading there (isDesktopOnly is false).
  // obsidianmd/regex-lookbehind misses negative lookbehind literals, hence these selectors. The
  // built bundle is checked too (scripts/check-bundle.mjs), for lookbehind from dependencies.
  {
    files: ['src/**/*.ts'],
    ignores: ['src/cli/**'],
    rules: { 'no-restricted-syntax': ['error', ...lookbehindSelectors] },
  },
  // core runs in the CLI and other tools too, where there is no window: `globalThis` is the right
  // global there, and DOM globals must not be used at all.
  {
    files: ['src/core/**/*.ts'],
    languageOptions: { globals: { document: 'off', window: 'off', activeDocument: 'off', activeWindow: 'off' } },
    rules: { 'obsidianmd/no-global-this': 'off' },
  },
  // Node-side code: tests, the obsidian test runtime, benchmarks, build scripts and the browser
  // harness (test infrastructure) run in Node or a test page, never in the plugin, so Node modules
  // and console output are fine there.
  {
    files: ['test/**/*.ts', 'bench/**/*.{ts,mjs}', 'scripts/**/*.mjs', 'version-bump.mjs', 'harness/**/*.ts', '*.config.{mjs,ts}'],
    languageOptions: { globals: { ...globals.node } },
    rules: {
      'obsidianmd/no-nodejs-modules': 'off',
      'import/no-extraneous-dependencies': 'off',
      'no-console': 'off',
      'obsidianmd/rule-custom-message': 'off',
      'obsidianmd/prefer-window-timers': 'off',
      'obsidianmd/no-global-this': 'off',
      'no-restricted-globals': 'off',
      'obsidianmd/hardcoded-config-path': 'off',
    },
  },
  // src/providers/transport.ts is the one file that may call `fetch` (streaming needs it; Obsidian's
  // requestUrl buffers whole responses). It and the two exchanges it chooses between set bare timers
  // (they also run under Node in tests, where there is no `window`). Every other restricted global
  // (app, localStorage …) stays restricted.
  {
    files: ['src/providers/transport.ts'],
    rules: {
      'no-restricted-globals': (() => {
        const inherited = obsidianmd.configs.recommended.find((c) => c.rules?.['no-restricted-globals'])?.rules['no-restricted-globals'] ?? ['warn'];
        const [severity, ...names] = Array.isArray(inherited) ? inherited : [inherited];
        return [severity, ...names.filter((entry) => !(typeof entry === 'object' && entry.name === 'fetch'))];
      })(),
    },
  },
  {
    files: ['src/providers/transport.ts', 'src/providers/fetch-exchange.ts', 'src/providers/fallback-exchange.ts'],
    rules: { 'obsidianmd/prefer-window-timers': 'off' },
  },
]);
