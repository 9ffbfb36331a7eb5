import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..', '..');
/**
 * The layer rules need no types. The typed rules of eslint.config.js are left out: their
 * project service knows only the files that exist, and these checks lint made-up ones.
 */
const eslint = new ESLint({
  cwd: root,
  overrideConfig: {
    languageOptions: { parserOptions: { projectService: false } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'off',
      '@typescript-eslint/no-misused-promises': 'off',
      '@typescript-eslint/await-thenable': 'off',
    },
  },
});

/** The layer rules that fire on `code` as if it were the file at `file` (eslint.layers.js). */
async function violations(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'no-restricted-imports')
    .map((m) => m.message);
}

describe('the dependency direction of the layers', () => {
  it('refuses Hono and table access in a domain service', async () => {
    const found = await violations(
      'src/example/service.ts',
      "import { Hono } from 'hono';\nimport { users } from '../db/schema/index.ts';\nexport const a = [Hono, users];\n",
    );
    expect(found).toHaveLength(2);
  });

  it('lets a service import schema types and its own repository', async () => {
    const found = await violations(
      'src/example/service.ts',
      "import type { UserRow } from '../db/schema/index.ts';\nimport type { UserRepository } from '../users/repository.ts';\nexport type A = [UserRow, UserRepository];\n",
    );
    expect(found).toEqual([]);
  });

  it('refuses a route that queries a repository or table itself', async () => {
    const found = await violations(
      'src/routes/example.ts',
      "import { createUserRepository } from '../users/repository.ts';\nexport const a = createUserRepository;\n",
    );
    expect(found).toHaveLength(1);
  });

  it('lets domain code import the route table of the contract, and still no route or HTTP module', async () => {
    const table = await violations(
      'src/example/thing.ts',
      "import { apiRoutes } from '../../contract/routes/index.ts';\nexport const a = apiRoutes;\n",
    );
    const routes = await violations(
      'src/example/thing.ts',
      "import { apiRoutes } from '../routes/index.ts';\nimport { x } from '../http/body.ts';\nexport const a = [apiRoutes, x];\n",
    );
    expect(table).toEqual([]);
    expect(routes).toHaveLength(2);
  });

  it('refuses ActivityPub libraries outside federation/', async () => {
    const found = await violations(
      'src/example/thing.ts',
      "import { Note } from '@fedify/vocab';\nimport { x } from '../../federation/index.ts';\nexport const a = [Note, x];\n",
    );
    expect(found).toHaveLength(2);
  });

  it('keeps Fedify out of the federation modules src/ loads at start (types only)', async () => {
    const value = await violations(
      'federation/entry-rows.ts',
      "import { Note } from '@fedify/vocab';\nexport const a = Note;\n",
    );
    const types = await violations(
      'federation/entry-rows.ts',
      "import type { Note } from '@fedify/vocab';\nexport type A = Note;\n",
    );
    expect(value).toHaveLength(1);
    expect(types).toEqual([]);
  });

  it('lets the client import the contract as types only, and never zod', async () => {
    const value = await violations(
      'web/src/example.ts',
      "import { userSchema } from '../../contract/users.ts';\nimport { z } from 'zod';\nexport const a = [userSchema, z];\n",
    );
    const types = await violations(
      'web/src/example.ts',
      "import type { User } from '../../contract/users.ts';\nexport type A = User;\n",
    );
    expect(value).toHaveLength(2);
    expect(types).toEqual([]);
  });

  it("lets the client import the contract's enumerations as values (plain data, no zod)", async () => {
    const found = await violations(
      'web/src/example.ts',
      "import { ROLES } from '../../contract/enums.ts';\nexport const a = ROLES;\n",
    );
    expect(found).toEqual([]);
  });

  it("lets the client import the cellar's limits as values (plain data, no zod)", async () => {
    const found = await violations(
      'web/src/example.ts',
      "import { COMMON_BOTTLE_SIZES } from '../../contract/cellar-limits.ts';\nexport const a = COMMON_BOTTLE_SIZES;\n",
    );
    expect(found).toEqual([]);
  });

  it('keeps the client away from server code but the beverage catalogue', async () => {
    const found = await violations(
      'web/src/example.ts',
      "import { CATALOG } from '../../src/beverages/catalog.ts';\nimport { presentUser } from '../../src/users/present.ts';\nexport const a = [CATALOG, presentUser];\n",
    );
    expect(found).toHaveLength(1);
  });

  it('keeps the contract free of everything but zod', async () => {
    const found = await violations(
      'contract/example.ts',
      "import fs from 'node:fs';\nimport { z } from 'zod';\nimport { ROLES } from './enums.ts';\nexport const a = [fs, z, ROLES];\n",
    );
    expect(found).toHaveLength(1);
  });
});
