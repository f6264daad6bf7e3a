/**
 * The latency bench's reference: a static server for the HLS the encoder writes straight to disk
 * (no ingest, no remux, no signed addresses) and a bare page that plays it with hls.js, configured
 * with the product's live-sync settings, its instance on `window.hls` for the player's own figures.
 */
import { createReadStream, existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

const HLS_JS = path.resolve('node_modules/hls.js/dist/hls.min.js');

const page = (config: object) => `<!doctype html>
<html><body style="margin:0;background:#000">
<video muted autoplay playsinline style="width:100%"></video>
<script src="/hls.js"></script>
<script>
  const video = document.querySelector('video');
  const hls = new Hls(${JSON.stringify(config)});
  window.hls = hls;
  hls.loadSource('/hls/index.m3u8');
  hls.attachMedia(video);
  video.play().catch(() => {});
</script>
</body></html>`;

export interface ReferenceServer {
  url: string;
  close(): Promise<void>;
}

export async function serveReference(dir: string, playerConfig: object): Promise<ReferenceServer> {
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/') {
      res.writeHead(200, { 'content-type': 'text/html' }).end(page(playerConfig));
      return;
    }
    const file = url.pathname === '/hls.js' ? HLS_JS : url.pathname.startsWith('/hls/') ? path.join(dir, path.basename(url.pathname)) : null;
    if (!file || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    const type = file.endsWith('.m3u8') ? 'application/vnd.apple.mpegurl' : file.endsWith('.ts') ? 'video/mp2t' : 'text/javascript';
    res.writeHead(200, { 'content-type': type, 'cache-control': file.endsWith('.m3u8') ? 'no-store' : 'max-age=3600' });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
