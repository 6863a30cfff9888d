import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

const COMPRESSIBLE = /^assets\/.*\.(js|css|svg)$/;

/**
 * Writes each asset a build emits in Brotli and gzip beside it, at their
 * highest quality, for the server to send as they are instead of
 * compressing every answer at a quick level (README, Benchmarks). A form
 * no smaller than the file is left out, and the file is sent.
 */
export function precompressed(): Plugin {
  return {
    name: 'enrol-precompressed',
    apply: 'build',
    writeBundle(options, bundle) {
      for (const name of Object.keys(bundle).filter((file) => COMPRESSIBLE.test(file))) {
        const path = join(options.dir ?? '', name);
        const bytes = readFileSync(path);
        const forms: [string, Buffer][] = [
          ['.br', brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } })],
          ['.gz', gzipSync(bytes, { level: 9 })],
        ];
        for (const [suffix, compressed] of forms) {
          if (compressed.length < bytes.length) writeFileSync(path + suffix, compressed);
        }
      }
    },
  };
}
