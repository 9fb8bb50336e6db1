// Builds the browser app into web/dist, which the server serves (src/pages/routes.ts). Everything is bundled:
// the pages load nothing from another site.
import { createHash } from 'node:crypto';
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

/**
 * web/theme.js as a classic script at the top of <head>, which blocks the first paint until it has run: the theme
 * chosen with the page's switch applies before anything is drawn (a module script runs after). Under assets/ with a
 * hash of its content in the name, like every other file the server caches for good.
 */
function themeScript(): Plugin {
  const source = readFileSync(fileURLToPath(new URL('./theme.js', import.meta.url)), 'utf8');
  const fileName = `assets/theme-${createHash('sha256').update(source).digest('hex').slice(0, 10)}.js`;
  return {
    name: 'theme-script',
    apply: 'build',
    generateBundle() {
      this.emitFile({ type: 'asset', fileName, source });
    },
    transformIndexHtml: () => [{ tag: 'script', attrs: { src: `/${fileName}` }, injectTo: 'head' }],
  };
}

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1024,
    assetsInlineLimit: 0,
    // Rolldown's [PLUGIN_TIMINGS] warning names the slow callbacks of a build (precompress's maximum brotli takes
    // seconds, and more on a busy machine): meant for a plugin's author, it ended every `npm install` in yellow.
    rolldownOptions: { checks: { bundlerTimings: false } },
  },
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  plugins: [themeScript(), precompress()],
});
