import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// No module of the web client imports itself back through others at run time. In a cycle, one
// module runs before the other has defined its exports, so which one works depends on which
// was imported first (a class used before its definition throws). Imports of types only are
// erased by the build (`import type`, `export type`) and do not count; nor do `import()`s,
// which load their module later, once the importer has run (the screens loaded on demand).

const root = path.resolve(import.meta.dirname, '..', '..');
const webSrc = path.join(root, 'web', 'src');

/**
 * The relative specifiers a module imports from when it runs: every `import … from` and
 * `export … from` but those of types only. As the client's tsconfig has verbatimModuleSyntax,
 * `import { type A } from` stays in the build as `import {} from` and counts too.
 */
function runtimeImports(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false);
  const found: string[] = [];
  for (const statement of source.statements) {
    let specifier: ts.Expression | undefined;
    if (ts.isImportDeclaration(statement)) {
      if (statement.importClause?.isTypeOnly) continue;
      specifier = statement.moduleSpecifier;
    } else if (ts.isExportDeclaration(statement)) {
      if (statement.isTypeOnly) continue;
      specifier = statement.moduleSpecifier;
    }
    if (specifier && ts.isStringLiteral(specifier) && specifier.text.startsWith('.')) {
      found.push(specifier.text);
    }
  }
  return found;
}

/** Every module under `dir` (recursively) with the modules under `dir` it imports at run time. */
function importGraph(dir: string): Map<string, string[]> {
  const files = fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.tsx?$/.test(name) && !name.endsWith('.d.ts'))
    .map((name) => path.join(dir, name));
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = runtimeImports(file, fs.readFileSync(file, 'utf8'))
      .map((specifier) => path.resolve(path.dirname(file), specifier.replace(/\?.*$/, '')))
      .filter((target) => known.has(target));
    graph.set(file, targets);
  }
  return graph;
}

/** The cycles of a graph: one list of modules per strongly connected part that has a cycle. */
function cyclesOf(graph: Map<string, string[]>): string[][] {
  // Tarjan's algorithm: every part of two or more modules, or of one that imports itself.
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const part: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      part.push(member);
    } while (member !== node);
    if (part.length > 1 || (graph.get(node) ?? []).includes(node)) cycles.push(part.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return cycles;
}

describe('the web client’s imports', () => {
  it('have no cycle at run time', () => {
    const graph = importGraph(webSrc);
    expect(graph.size).toBeGreaterThan(100);
    const cycles = cyclesOf(graph).map((part) => part.map((file) => path.relative(root, file)));
    expect(cycles).toEqual([]);
  });
});

describe('runtimeImports and cyclesOf', () => {
  it('count value imports and re-exports, not imports of types or import()', () => {
    const text = [
      "import { a } from './a.ts';",
      "import type { B } from './b.ts';",
      "import { type C } from './c.ts';",
      "import './d.css';",
      "export { e } from './e.ts';",
      "export type { F } from './f.ts';",
      "export * from './g.ts';",
      "import { h } from 'react';",
      "const later = () => import('./i.ts');",
    ].join('\n');
    expect(runtimeImports('x.ts', text)).toEqual([
      './a.ts',
      './c.ts',
      './d.css',
      './e.ts',
      './g.ts',
    ]);
  });

  it('find a cycle of any length, and none in a graph without one', () => {
    const withCycle = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', []],
      ['e', ['e']],
    ]);
    expect(cyclesOf(withCycle)).toEqual([['a', 'b', 'c'], ['e']]);
    const without = new Map([
      ['a', ['b', 'c']],
      ['b', ['c']],
      ['c', []],
    ]);
    expect(cyclesOf(without)).toEqual([]);
  });
});
