import { defineConfig } from 'vite';

/**
 * The dashboard is served by the gateway under `/ui/`: hashed file names under `assets/` (cached for a year), no inline
 * script or style (the gateway's Content-Security-Policy allows only `'self'`), Preact's automatic JSX runtime.
 */
export default defineConfig({
  base: '/ui/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    target: 'es2022',
  },
});
