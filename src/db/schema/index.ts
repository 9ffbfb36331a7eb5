// The whole database schema, one file per aggregate. drizzle-kit reads this folder.
export * from './users.ts';
export * from './federation.ts';
export * from './beverages.ts';
export * from './second-factor.ts';
export * from './social.ts';
export * from './stats.ts';
export * from './blocks.ts';
export * from './tokens.ts';
export * from './idempotency.ts';
export * from './cellar.ts';
export * from './threads.ts';
