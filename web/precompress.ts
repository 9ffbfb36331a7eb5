import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** The text files worth compressing; source maps are left alone (not served by default). */
export const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|webmanifest|txt)$/i;

/**
 * Writes `file.br` (Brotli, quality 11) and `file.gz` (gzip, level 9) beside every text file of
 * the build, so that the server sends them as they are, costing it nothing per request
 * (src/http/static-client.ts). A variant no smaller than the file itself is not written.
 */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'vault:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      async handler() {
        const files = await fs.readdir(outDir, { recursive: true, withFileTypes: true });
        await Promise.all(
          files
            .filter((entry) => entry.isFile() && COMPRESSIBLE.test(entry.name))
            .map((entry) => compressFile(path.join(entry.parentPath, entry.name))),
        );
      },
    },
  };
}

async function compressFile(file: string): Promise<void> {
  const body = await fs.readFile(file);
  const [br, gz] = await Promise.all([
    brotli(body, {
      params: {
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
    gzip(body, { level: zlib.constants.Z_BEST_COMPRESSION }),
  ]);
  if (br.length < body.length) await fs.writeFile(`${file}.br`, br);
  if (gz.length < body.length) await fs.writeFile(`${file}.gz`, gz);
}
