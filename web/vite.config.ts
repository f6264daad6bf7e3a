import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { firstLoadReport, precompress } from '../scripts/precompress-web';

const webRoot = fileURLToPath(new URL('.', import.meta.url));
const LIBS = /node_modules[\\/](?!altcha|marked|hls\.js|tus-js-client|js-base64|url-parse|querystringify|requires-port|@fullcalendar|preact|@mediapipe|uplot)/;
const OURS = /[\\/](web|common)[\\/]/;
const apiServer = 'http://127.0.0.1:3000';

/** After the files are written: brotli and gzip copies beside them, and what a first visit costs. */
function precompressed(): Plugin {
  let outDir = '';
  return {
    name: 'limelight-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    closeBundle() {
      const report = firstLoadReport(outDir, precompress(outDir));
      this.environment.logger.info(report);
    },
  };
}

export default defineConfig({
  root: webRoot,
  plugins: [react(), precompressed()],
  resolve: {
    // Our playback needs no subtitles, DRM or alternate audio (the renditions carry their audio): hls.js's
    // light build is 40 % smaller. The full package still gives the types.
    alias: [{ find: /^hls\.js$/, replacement: 'hls.js/dist/hls.light.mjs' }],
  },
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    sourcemap: true,
    // What each page's code needs, for the page weight budget (scripts/page-weight.ts).
    manifest: true,
    rolldownOptions: {
      // common/ runs nothing on import, so a page takes only the contract files it calls, not all of common/api's index.
      // Nor does a feature's entry (index.ts, decision 0050): a page takes what it imports through one, not all it re-exports.
      treeshake: {
        moduleSideEffects: [
          { test: /[\\/]common[\\/][^\\/].*\.ts$/, sideEffects: false },
          { test: /[\\/]web[\\/]features[\\/][^\\/]+[\\/]index\.ts$/, sideEffects: false },
        ],
      },
      output: {
        // React, then what the first page needs (`$initial`: statically imported from main.tsx) in two
        // chunks, libraries and ours; what several pages share is split by the set of pages that use it,
        // so a page fetches none of another's code (decision 0029); no piece is merged into a neighbour, however
        // small, since a merged piece brings another page's code (and the contract's zod) along (decision 0032).
        // Libraries outside LIBS — altcha,
        // marked, hls.js, the upload client (tus-js-client with js-base64 and url-parse's), the meetings
        // calendar (FullCalendar with its preact), the background blur's segmentation files (@mediapipe)
        // and the analytics charts (uPlot) — stay with the pages that load them.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/, priority: 4 },
            { name: 'vendor', test: LIBS, tags: ['$initial'], priority: 3 },
            { name: 'shell', test: OURS, tags: ['$initial'], priority: 2 },
            { name: 'libs', test: LIBS, minShareCount: 2, priority: 1, entriesAware: true, entriesAwareMergeThreshold: 0 },
            { name: 'shared', test: OURS, minShareCount: 2, priority: 0, entriesAware: true, entriesAwareMergeThreshold: 0 },
          ],
        },
      },
    },
  },
  server: {
    // common/ lives beside web/, outside the Vite root.
    fs: { allow: [fileURLToPath(new URL('..', import.meta.url))] },
    proxy: {
      '/api': apiServer,
      '/ajax': apiServer,
      '/uploads': apiServer,
      '/media': apiServer,
      '/healthz': apiServer,
      '/ws': { target: apiServer, ws: true },
    },
  },
});
