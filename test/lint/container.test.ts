import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..', '..');

/** The folders the Dockerfile's last stage copies into the image, as paths under /app. */
function copiedIntoImage(): string[] {
  const dockerfile = fs.readFileSync(path.join(root, 'Dockerfile'), 'utf8');
  const lastStage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
  return [...lastStage.matchAll(/^COPY --from=build \/app\/(\S+) \.\/(\S+)$/gm)].map((m) => {
    expect(m[1]).toBe(m[2]); // each keeps its place, so relative imports still resolve
    return m[1]!.replace(/\/$/, '');
  });
}

describe('the container image', () => {
  it('holds every file the server and the command line import', () => {
    const copied = copiedIntoImage();
    expect(copied).toEqual(expect.arrayContaining(['src', 'migrations', 'web/dist']));
    const inImage = (file: string) =>
      copied.some((dir) => file === dir || file.startsWith(`${dir}/`));
    const missing = new Set<string>();
    const seen = new Set<string>();
    const queue = ['src/main.ts', 'src/cli.ts'];
    while (queue.length) {
      const file = queue.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      if (!inImage(file)) missing.add(file);
      const text = fs.readFileSync(path.join(root, file), 'utf8');
      for (const m of text.matchAll(/(?:from|import\()\s*'(\.{1,2}\/[^']+\.ts)'/g)) {
        queue.push(path.relative(root, path.resolve(root, path.dirname(file), m[1]!)));
      }
    }
    expect(seen.size).toBeGreaterThan(100);
    expect([...missing]).toEqual([]);
  });
});
