import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompressed } from './vite-precompress';

// The back office's build (decision 017): its own entry, admin/index.html,
// built to dist/admin/index.html and dist/admin/assets/, served under
// /admin/. Nothing here is in the public build (vite.config.ts), and no
// public file imports src/admin/ (eslint.config.js refuses it). The page
// has no inline script or style, for the server's CSP
// (script-src 'self'; style-src 'self').
export default defineConfig({
  root: fileURLToPath(new URL('./admin', import.meta.url)),
  base: '/admin/',
  publicDir: false,
  plugins: [react(), precompressed()],
  build: {
    outDir: fileURLToPath(new URL('./dist/admin', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    // Vite's modulepreload polyfill is a script of its own; the browsers staff
    // use preload the content screens' chunk (loaded when first opened) without it.
    modulePreload: { polyfill: false },
  },
});
