import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The server build: one IIFE script that QuickJS evaluates inside the Rust
// binary. It assigns `globalThis.EnrolSSR = { render }`. React's
// render-to-string-only build needs no MessageChannel or TextEncoder.
export default defineConfig({
  plugins: [react()],
  define: { 'process.env.NODE_ENV': '"production"' },
  resolve: {
    alias: {
      'react-dom/server': fileURLToPath(
        new URL('./node_modules/react-dom/cjs/react-dom-server-legacy.browser.production.js', import.meta.url),
      ),
    },
  },
  build: {
    outDir: 'dist/server',
    emptyOutDir: true,
    target: 'es2022',
    minify: true,
    copyPublicDir: false,
    lib: {
      entry: 'src/entry-server.tsx',
      formats: ['iife'],
      name: 'EnrolSSR',
      fileName: () => 'entry-server.js',
    },
  },
});
