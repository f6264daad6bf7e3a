import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { firstLoadReport, precompress } from '../scripts/precompress-web';

const webRoot = fileURLToPath(new URL('.', import.meta.url));
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
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    sourcemap: true,
    rolldownOptions: {
      output: {
        // Long-lived vendor chunks cache across releases; altcha, marked, hls.js, the upload client
        // (tus-js-client with js-base64 and url-parse's), the meetings calendar (FullCalendar with its
        // preact), the background blur's segmentation files (@mediapipe) and the analytics charts (uPlot)
        // stay lazy (loaded on demand).
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/, priority: 2 },
            { name: 'vendor', test: /node_modules[\\/](?!altcha|marked|hls\.js|tus-js-client|js-base64|url-parse|querystringify|requires-port|@fullcalendar|preact|@mediapipe|uplot)/, priority: 1 },
            // Our code that several pages share (UI kit, API client, contract) in one file, not a dozen small requests.
            { name: 'shared', test: /[\\/](web|common)[\\/]/, minShareCount: 2, priority: 0 },
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
