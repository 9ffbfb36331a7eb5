// The JavaScript a browser downloads before the client can start: the entry script of the built
// web/dist/index.html plus every module it preloads, raw, gzipped (level 9) and as the vault
// sends it to a browser accepting Brotli (the .br file the build wrote beside it, else the file
// itself). Screens and libraries loaded on demand are not counted.
// Run alone: node bench/client-size.ts [distDir]   (default web/dist; build it first)
import fs from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

export interface InitialClientJs {
  /** Paths as index.html names them, e.g. /assets/index-abc123.js. */
  files: string[];
  rawBytes: number;
  gzipBytes: number;
  /** What the vault sends for them to `Accept-Encoding: br, gzip`, read from the build. */
  brBytes: number;
}

/** The value of one attribute in a tag's source, if present. */
function attribute(tag: string, name: string): string | undefined {
  const match = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag);
  return match ? (match[1] ?? match[2] ?? match[3]) : undefined;
}

/** The scripts index.html loads up front: `<script type="module" src>` and modulepreload links. */
export function initialScripts(html: string): string[] {
  const files: string[] = [];
  for (const [tag] of html.matchAll(/<script\b[^>]*>/gi)) {
    const src = attribute(tag, 'src');
    if (attribute(tag, 'type') === 'module' && src) files.push(src);
  }
  for (const [tag] of html.matchAll(/<link\b[^>]*>/gi)) {
    const href = attribute(tag, 'href');
    if (attribute(tag, 'rel')?.split(/\s+/).includes('modulepreload') && href) files.push(href);
  }
  return [...new Set(files)];
}

export async function measureInitialClientJs(distDir: string): Promise<InitialClientJs> {
  const html = await fs.readFile(path.join(distDir, 'index.html'), 'utf8');
  const files = initialScripts(html);
  if (files.length === 0) throw new Error(`${distDir}/index.html loads no module script`);
  let rawBytes = 0;
  let gzipBytes = 0;
  let brBytes = 0;
  for (const file of files) {
    if (/^[a-z]+:\/\//i.test(file)) throw new Error(`index.html loads ${file} from elsewhere`);
    const built = path.join(distDir, new URL(file, 'http://x/').pathname);
    const body = await fs.readFile(built);
    rawBytes += body.length;
    gzipBytes += gzipSync(body, { level: 9 }).length;
    brBytes += await fs.stat(`${built}.br`).then(
      (br) => br.size,
      () => body.length,
    );
  }
  return { files, rawBytes, gzipBytes, brBytes };
}

/**
 * The bytes a running vault sends for `files` to a browser (`Accept-Encoding: br, gzip`): the
 * sum of their Content-Length headers, which count the encoded body.
 */
export async function measureWireBytes(origin: string, files: string[]): Promise<number> {
  let total = 0;
  for (const file of files) {
    const res = await fetch(new URL(file, origin), { headers: { 'accept-encoding': 'br, gzip' } });
    if (!res.ok) throw new Error(`${file}: ${res.status}`);
    await res.body?.cancel();
    total += Number(res.headers.get('content-length'));
  }
  return total;
}

if (import.meta.main) {
  const distDir = path.resolve(
    process.argv[2] ?? path.join(import.meta.dirname, '..', 'web', 'dist'),
  );
  const { files, rawBytes, gzipBytes, brBytes } = await measureInitialClientJs(distDir);
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  console.log(`Initial client JavaScript (${distDir}):`);
  for (const file of files) console.log(`  ${file}`);
  console.log(`  ${kb(rawBytes)} raw, ${kb(gzipBytes)} gzip, ${kb(brBytes)} sent (br)`);
}
