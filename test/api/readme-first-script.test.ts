import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { root } from '../helpers/process.ts';
import { startTestServer } from '../helpers/server.ts';

const run = promisify(execFile);

/** The shell block of the README's "First script" section, as a reader would copy it. */
function firstScript(): string {
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## First script'));
  const block = /```sh\n([\s\S]*?)```/.exec(section);
  if (!block?.[1]) throw new Error('README.md has no sh block under "First script"');
  return block[1];
}

describe("the README's first script", () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('lists the entries and logs one with curl and a write token alone', async () => {
    const owner = await server.createUser({
      username: 'curly',
      password: 'a long script password',
    });
    const { secret } = await server.ctx.tokens.create(owner, { name: 'Script', scope: 'write' });
    // The reader's two assignments, with this vault and this token.
    const script = firstScript()
      .replace(/^VAULT=.*$/m, `VAULT=${server.url}`)
      .replace(/^TOKEN=.*$/m, `TOKEN=${secret}`);
    expect(script).toContain(`TOKEN=${secret}`);

    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', script], { timeout: 30_000 });

    // The list (empty so far), then the logged entry: two JSON answers, one after the other.
    const [list, logged] = stdout.replace(/}\s*{/, '}\n\u0000{').split('\n\u0000');
    expect(JSON.parse(list!)).toEqual({ beverages: [], nextCursor: null });
    expect(JSON.parse(logged!).beverage).toMatchObject({
      name: 'Talisker 10',
      type: 'WHISKEY',
      rating: 4,
      status: 'TRIED',
      userId: owner.id,
    });
    const stored = await server.ctx.database.database
      .prepare('SELECT name, rating FROM beverages WHERE user_id = ?')
      .all(owner.id);
    expect(stored).toEqual([{ name: 'Talisker 10', rating: 4 }]);
  });
});
