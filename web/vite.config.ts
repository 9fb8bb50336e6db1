// Builds the browser app into web/dist, which the server serves (src/pages/routes.ts). Everything is bundled:
// the pages load nothing from another site.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';

/**
 * Writes `name.br` and `name.gz` beside every text file of the build, compressed as hard as brotli and gzip go:
 * once here instead of on every request, and not at start either (each server and each test would pay seconds of
 * brotli for the three.js chunk). The server picks one by the request's Accept-Encoding.
 */
function precompress(): Plugin {
  return {
    name: 'precompress',
    apply: 'build',
    writeBundle(options, bundle) {
      for (const name of Object.keys(bundle)) {
        if (!/\.(js|css|html|svg)$/.test(name)) continue;
        const file = join(options.dir!, name);
        const bytes = readFileSync(file);
        const brotliParams = {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        };
        writeFileSync(`${file}.br`, brotliCompressSync(bytes, { params: brotliParams }));
        writeFileSync(`${file}.gz`, gzipSync(bytes, { level: constants.Z_BEST_COMPRESSION }));
      }
    },
  };
}

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 1024, assetsInlineLimit: 0 },
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  plugins: [precompress()],
});
