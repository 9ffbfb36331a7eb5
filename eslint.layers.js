// The dependency direction of docs/architecture.md ("Layers"), enforced by ESLint's own
// no-restricted-imports: a layer violation fails `npm run lint` and so `npm test`.
//
//   contract/  ← web/ (types only; plain data: enums.ts, cellar-limits.ts) and src/ (schemas)
//   route (src/routes, src/http) → service → repository → db
//   domain code under src/ imports no module of federation/ but gateway.ts
//   Fedify is loaded only through federation/gateway.ts, on demand: the federation modules that
//   the wiring (src/context.ts, src/federation-context.ts) and the routes import at start take
//   Fedify's types only

const hono = {
  group: ['hono', 'hono/*', '@hono/*'],
  message:
    'Only src/routes, src/http and src/app.ts speak HTTP; domain code takes plain values and throws DomainError.',
};
const fedify = { group: ['@fedify/*'], message: 'ActivityPub shapes live in federation/ only.' };
// contract/routes/ (the route table) is contract, which any code may import.
const routesOrHttp = {
  regex: '(^|/)(?<!contract/)(routes|http)/',
  message: 'Domain code never imports routes or HTTP plumbing.',
};
const federationFolder = {
  regex: '(^|/)federation/(?!gateway\\.ts$)',
  message: 'Domain code reaches federation/ only through federation/gateway.ts.',
};

// The federation modules that load with src/ (the wiring, src/routes/, src/http/ import them
// statically, not as types only) and what they import so in turn. Fedify is loaded on demand
// through gateway.ts, so these take only its types (or import it with a dynamic import() once a
// request needs it). test/lint/architecture-doc.test.ts fails when one is missing here.
export const loadedAtStart = [
  'federation/gateway.ts',
  'federation/comment-addressing.ts',
  'federation/comment-jobs.ts',
  'federation/comment-threads.ts',
  'federation/entry-audience.ts',
  'federation/entry-handoff.ts',
  'federation/entry-rows.ts',
  'federation/tasting-handoff.ts',
  'federation/note-generations.ts',
  'federation/follow-handoff.ts',
  'federation/block-handoff.ts',
  'federation/profile-handoff.ts',
  'federation/conversation-handoff.ts',
  'federation/handoff-parts.ts',
  'federation/html.ts',
  'federation/lookup.ts',
  'federation/paths.ts',
  'federation/server-software.ts',
  'federation/remote-actor.ts',
  'federation/vault-context.ts',
];
const fedifyTypesOnly = {
  group: ['@fedify/*'],
  allowTypeImports: true,
  message:
    "This module is loaded at start, before Fedify: import Fedify's types only (Fedify loads through federation/gateway.ts).",
};

const restrict = (...patterns) => ['error', { patterns }];

export const layerRules = [
  {
    files: ['contract/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict({
        regex: '^(?!zod$|\\./|\\.\\./[a-z-]+\\.ts$)',
        message: 'contract/ is the API shape alone: it imports zod and itself, nothing else.',
      }),
    },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': restrict(
        {
          regex: '(^|/)contract/(?!(enums|cellar-limits)\\.ts$)',
          allowTypeImports: true,
          message:
            'The client imports the contract as types only (import type), so zod stays out of the bundle; contract/enums.ts and contract/cellar-limits.ts are plain data and may be imported.',
        },
        {
          regex: '(^|/)(src|federation)/(?!beverages/(catalog|type-names)\\.ts$)',
          message:
            'The client shares only the contract and the beverage catalogue (and its type names) with the server.',
        },
        { group: ['zod', 'zod/*'], message: 'No zod in the browser bundle.' },
      ),
    },
  },
  {
    // Domain code: everything under src/ but the HTTP edge, the wiring and the database layer.
    files: ['src/**/*.ts'],
    ignores: [
      'src/routes/**',
      'src/http/**',
      'src/app.ts',
      'src/server.ts',
      'src/main.ts',
      'src/context.ts',
      'src/federation-context.ts',
      'src/cli.ts',
    ],
    rules: { 'no-restricted-imports': restrict(hono, fedify, routesOrHttp, federationFolder) },
  },
  {
    files: ['src/**/service.ts', 'src/**/*-service.ts'],
    rules: {
      'no-restricted-imports': restrict(hono, fedify, routesOrHttp, federationFolder, {
        regex: '(^|/)db/(schema|orm)',
        allowTypeImports: true,
        message:
          'Services reach tables through their repositories (types from the schema are fine).',
      }),
    },
  },
  {
    files: loadedAtStart,
    rules: { 'no-restricted-imports': restrict(fedifyTypesOnly) },
  },
  {
    files: ['src/routes/**/*.ts', 'src/http/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(fedify, {
        regex: '(^|/)(db/(schema|orm|client)|[a-z-]*repository)(\\.ts)?$|(^|/)db/schema/',
        allowTypeImports: true,
        message: 'Routes call services; only repositories query tables.',
      }),
    },
  },
];
