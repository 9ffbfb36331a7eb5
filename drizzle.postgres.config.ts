import { defineConfig } from 'drizzle-kit';

// The PostgreSQL migrations (`npm run db:generate` writes both engines'): the tables are made
// from the one schema source, src/db/schema/, by src/db/postgres-schema.ts.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/postgres-tables.ts',
  out: './migrations-postgres',
});
