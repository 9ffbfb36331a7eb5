// `npm run check`: the type checks (server and client), lint and formatting, two at a time (this
// machine has two cores; one after another they took about 37 s). Each tool's output is printed
// whole when it ends; the exit code is non-zero if any of them failed.
import { spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const bin = (name: string) => path.join(root, 'node_modules', '.bin', name);

const CHECKS: [label: string, command: string, args: string[]][] = [
  ['tsc (server)', bin('tsc'), ['-p', 'tsconfig.json']],
  ['eslint', bin('eslint'), ['.']],
  ['tsc (client)', bin('tsc'), ['-p', 'web/tsconfig.json']],
  ['prettier', bin('prettier'), ['--check', '.']],
];
const AT_ONCE = 2;

function run([label, command, args]: (typeof CHECKS)[number]): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, env: process.env });
    const output: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
    child.on('error', (error) => {
      output.push(Buffer.from(`${error.message}\n`));
    });
    child.on('close', (code) => {
      const ok = code === 0;
      process.stdout.write(`${ok ? 'ok  ' : 'FAIL'} ${label}\n${Buffer.concat(output)}`);
      resolve(ok);
    });
  });
}

const queue = [...CHECKS];
const results: boolean[] = [];
await Promise.all(
  Array.from({ length: AT_ONCE }, async () => {
    for (let next = queue.shift(); next; next = queue.shift()) results.push(await run(next));
  }),
);
process.exit(results.every(Boolean) ? 0 : 1);
