import { defineConfig } from 'vite';
import { precompressed } from './vite-precompress';

// The SCORM runtimes (decision 026): one classic script per edition
// (SCORM_EDITION=12 or 2004), which a package's pages load before their own
// scripts, so it must run at once (an IIFE, not a module). Hashed into
// dist/client/assets beside the site's own files, with a manifest of its own
// (.vite/scorm-<edition>.json) where the server finds its name.
const edition = process.env.SCORM_EDITION;
if (edition !== '12' && edition !== '2004') throw new Error('Set SCORM_EDITION to 12 or 2004.');

export default defineConfig({
  publicDir: false,
  plugins: [precompressed()],
  build: {
    outDir: 'dist/client',
    emptyOutDir: false,
    manifest: `.vite/scorm-${edition}.json`,
    target: 'es2020',
    rollupOptions: {
      input: `src/scorm-runtime/runtime-${edition}.ts`,
      output: { format: 'iife', entryFileNames: `assets/scorm-${edition}-[hash].js` },
    },
  },
});
