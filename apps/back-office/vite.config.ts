import { defineConfig } from 'vite';

/**
 * The back office, built into dist/: index.html and hashed assets under /app/, which the gateway serves
 * (CTK_BACK_OFFICE_DIR) under the pages' Content-Security-Policy: no inline script, so no preload polyfill.
 */
export default defineConfig({
  base: '/app/',
  build: { outDir: 'dist', emptyOutDir: true, modulePreload: { polyfill: false }, target: 'es2022' },
});
