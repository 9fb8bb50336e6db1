// Builds the browser app into web/dist, which the server serves (src/web/routes.ts). Everything is bundled:
// the pages load nothing from another site.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 1024, assetsInlineLimit: 0 },
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
});
