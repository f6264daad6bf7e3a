import { describe, expect, it } from 'vitest';
import { renderEdgeConfig } from './edge-config';

const base = { listen: '127.0.0.1:8080', upstreams: ['10.0.0.2:3000', '10.0.0.3:3000'], cacheDir: '/var/cache/edge', stateDir: '/var/lib/edge' };

describe('the edge configuration', () => {
  it('fills in the instances, the address, the folders and checks tokens before the cache', () => {
    const text = renderEdgeConfig(base);
    expect(text).not.toMatch(/\{\{/);
    expect(text).toContain('server 10.0.0.2:3000 max_fails=3 fail_timeout=5s;');
    expect(text).toContain('server 10.0.0.3:3000 max_fails=3 fail_timeout=5s;');
    expect(text).toContain('listen 127.0.0.1:8080;');
    expect(text).toContain('proxy_cache_path /var/cache/edge ');
    expect(text).toContain('proxy_cache_key "hls/$media_stream/$media_file";');
    expect(text).toContain('proxy_cache_lock on;');
    expect(text.indexOf('if ($media_grant != "1")')).toBeLessThan(text.indexOf('proxy_cache limelight_media;'));
  });

  it('refuses a value that would write nginx directives', () => {
    expect(() => renderEdgeConfig({ ...base, upstreams: [] })).toThrow(/upstream/);
    expect(() => renderEdgeConfig({ ...base, upstreams: ['10.0.0.2:3000; include /etc/passwd'] })).toThrow(/host:port/);
    expect(() => renderEdgeConfig({ ...base, cacheDir: '/tmp/x; y' })).toThrow(/CACHE_DIR/);
  });
});
