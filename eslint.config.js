import { builtinModules } from 'node:module';
import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const testFiles = ['**/*.test.{ts,tsx}'];

/** `no-restricted-imports` over import paths matched by regular expressions, each with its why. */
const restrictImports = (...patterns) => ({
  'no-restricted-imports': [
    'error',
    { patterns: patterns.map(([regex, message]) => ({ regex, message })) },
  ],
});

// The protocol is shared by the server and the web app, so it must run in both and pull in
// neither.
const protocolImportsNoApp = [
  '^@filerunner/(server|web)(/|$)|(^|/)apps/|^(\\.\\./){2,}',
  'packages/protocol is shared by the server and the web app: it imports no app and nothing outside its own files.',
];
const protocolDependsOnSchemasOnly = (allowed) => [
  `^(?!(${allowed.join('|')})(/|$))[^.]`,
  `packages/protocol runs in the browser and in Node, so it depends on nothing but ${allowed.join(', ')}.`,
];

// The protocol (the route table and its client) and the transfer core run the same way in the
// browser and in Node; what needs a platform lives in the apps, src/browser/ and src/node/.
const nodeBuiltins = builtinModules.filter((name) => !name.startsWith('_'));
const platformGlobals = Object.keys({ ...globals.browser, ...globals.node }).filter(
  (name) => !(name in globals.builtin),
);
// Both platforms have these alike. Blob is here for types: constructing one is still refused below.
const coreGlobals = [
  'AbortController',
  'AbortSignal',
  'Blob',
  // Web streams: a download's chunks are read as they arrive (fetch's body, in both platforms).
  'ReadableStream',
  'TextDecoder',
  'TextEncoder',
  'URL',
  'URLSearchParams',
  'clearTimeout',
  'setTimeout',
];
const platformFreeWhy =
  'packages/protocol and packages/transfer/src/core run in the browser and in Node alike: platform code belongs in the apps, src/browser/ or src/node/.';

// Only the globals both platforms have alike, for packages/protocol and the transfer core.
const platformFree = {
  languageOptions: {
    globals: {
      ...Object.fromEntries(platformGlobals.map((name) => [name, 'off'])),
      ...Object.fromEntries(coreGlobals.map((name) => [name, 'readonly'])),
    },
  },
  rules: {
    // typescript-eslint turns no-undef off for TypeScript; here it is what catches a DOM or
    // Node global, since none is declared for this folder.
    'no-undef': 'error',
    'no-restricted-globals': [
      'error',
      ...[
        'window',
        'self',
        'document',
        'navigator',
        'location',
        'localStorage',
        'sessionStorage',
        'indexedDB',
        'File',
        // Blob stays allowed: bytes travel as Blobs in browsers and Node alike (see api/http.ts).
        'FileReader',
        'FormData',
        'fetch',
        'XMLHttpRequest',
        'Request',
        'Response',
        'Headers',
        'crypto',
        'process',
        'Buffer',
        'global',
        'require',
      ].map((name) => ({ name, message: platformFreeWhy })),
    ],
  },
};

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/data/**', '**/.tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}', 'packages/transfer/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },

  // Long files hide more than one job; split them rather than scroll them. Tests and generated
  // migrations are exempt.
  {
    files: ['**/*.{js,ts,tsx}'],
    ignores: [...testFiles, '**/drizzle/**'],
    rules: { 'max-lines': ['error', { max: 400, skipBlankLines: true, skipComments: true }] },
  },

  {
    files: ['apps/web/**/*.{ts,tsx}'],
    rules: restrictImports(
      [
        '^@filerunner/server(/|$)|^(\\.\\./)+(apps/)?server/',
        'The web app never imports the server: it reaches it over HTTP, through the route tables in @filerunner/protocol.',
      ],
      [
        '^@mui/(material|icons-material)$',
        "Import MUI per component ('@mui/material/Button', '@mui/icons-material/Inbox'): the barrels pull whole libraries into the first load.",
      ],
    ),
  },

  {
    files: ['packages/protocol/**/*.ts'],
    ignores: testFiles,
    rules: restrictImports(
      protocolImportsNoApp,
      protocolDependsOnSchemasOnly(['zod', 'libphonenumber-js']),
    ),
  },
  {
    files: testFiles.map((glob) => `packages/protocol/${glob}`),
    rules: restrictImports(
      protocolImportsNoApp,
      protocolDependsOnSchemasOnly(['zod', 'libphonenumber-js', 'vitest', 'fast-check']),
    ),
  },

  {
    files: ['apps/server/src/http/**/*.ts', 'apps/server/src/jobs/**/*.ts'],
    rules: restrictImports([
      '(^|/)modules/[^/]+/',
      "The HTTP layer and the jobs take a feature module's public entry (modules/<area>/index.ts), never its files: what a module keeps inside stays free to change.",
    ]),
  },

  // Membership rows are read through modules/memberships so that accounts and contracts do not
  // import each other: contracts may use accounts (it invites users), never the other way round.
  {
    files: ['apps/server/src/modules/accounts/**/*.ts'],
    rules: restrictImports([
      '^\\.\\./contracts(/|$)',
      'accounts must not import contracts (contracts imports accounts): read membership rows from ../memberships.',
    ]),
  },
  {
    files: ['apps/server/src/modules/memberships/**/*.ts'],
    rules: restrictImports([
      '^\\.\\./(accounts|contracts)(/|$)',
      'memberships sits below accounts and contracts, which both read membership rows from it: it imports neither.',
    ]),
  },

  {
    files: ['packages/transfer/src/core/**/*.ts'],
    // Tests may check the core against real outside tools (tar, files on disk).
    ignores: testFiles,
    ...platformFree,
    rules: {
      ...platformFree.rules,
      ...restrictImports(
        [`^(node:|(${nodeBuiltins.join('|').replace(/\//g, '\\/')})(/|$))`, platformFreeWhy],
        ['^\\.\\./(browser|node)(/|$)', platformFreeWhy],
      ),
    },
  },
  {
    files: ['packages/protocol/src/**/*.ts'],
    ignores: testFiles,
    ...platformFree,
  },
);
