/**
 * Prints the edge cache's nginx configuration for one deployment (decision 0066):
 * `npx tsx scripts/edge-config.ts --listen 80 --upstream 10.0.0.2:3000 --upstream 10.0.0.3:3000
 * --cache-dir /var/cache/limelight-edge --state-dir /var/lib/limelight-edge > /etc/nginx/limelight.conf`,
 * then `PLAYBACK_SECRET=… nginx -c /etc/nginx/limelight.conf` (the instances get the same PLAYBACK_SECRET
 * and TRUST_PROXY=1).
 */
import { parseArgs } from 'node:util';
import { renderEdgeConfig } from '../server/platform/media/edge-config';

const { values } = parseArgs({
  options: {
    listen: { type: 'string', default: '80' },
    upstream: { type: 'string', multiple: true, default: [] },
    'cache-dir': { type: 'string', default: '/var/cache/limelight-edge' },
    'state-dir': { type: 'string', default: '/var/lib/limelight-edge' },
    'cache-max': { type: 'string', default: '4g' },
  },
});
process.stdout.write(renderEdgeConfig({
  listen: values.listen,
  upstreams: values.upstream,
  cacheDir: values['cache-dir'],
  stateDir: values['state-dir'],
  cacheMax: values['cache-max'],
}));
