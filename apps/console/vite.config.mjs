// The console's build: a static single-page app the gateway serves at /console (apps/gateway/src/console).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/console/',
  // Answer shapes shared with the gateway; only this Node-free part of libs/contracts reaches the browser.
  // The builder's flow editor (@xyflow/react) is a React library: it runs on Preact through preact/compat.
  resolve: {
    alias: {
      '@platform/contracts/views': fileURLToPath(new URL('../../libs/contracts/src/views.ts', import.meta.url)),
      'react-dom/client': 'preact/compat/client',
      'react-dom': 'preact/compat',
      'react/jsx-runtime': 'preact/jsx-runtime',
      react: 'preact/compat',
    },
  },
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: fileURLToPath(new URL('../../dist/console', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    // The CSP allows no inline script or style: nothing may be inlined as a data: URL either.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    target: 'es2022',
    reportCompressedSize: false,
  },
  logLevel: 'warn',
});
