/// <reference types="vitest/config" />
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompressed } from './vite-precompress';

// The browser build: hashed files under dist/client/assets and a manifest the
// Rust server reads to write the page's script and stylesheet tags.
export default defineConfig({
  plugins: [react(), precompressed()],
  build: {
    outDir: 'dist/client',
    manifest: true,
    target: 'es2022',
    // The server preloads a page's route chunk and everything it imports
    // (assets.rs); Vite's own preload lists, one per route in the entry,
    // would grow every page's first JavaScript with each page kind added.
    modulePreload: false,
    rollupOptions: { input: 'src/entry-client.tsx' },
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    restoreMocks: true,
  },
});
