import { describe, expect, it } from 'vitest';
import { rtmpPushUrl } from './rtmp-publisher';

describe('rtmpPushUrl', () => {
  it('pushes to 127.0.0.1 where the address says localhost, and appends the key once', () => {
    expect(rtmpPushUrl('rtmp://localhost:1935/live', 'k3y')).toBe('rtmp://127.0.0.1:1935/live/k3y');
    expect(rtmpPushUrl('rtmp://localhost:1935/live/', 'k3y')).toBe('rtmp://127.0.0.1:1935/live/k3y');
    expect(rtmpPushUrl('rtmp://LOCALHOST/live/k3y', 'k3y')).toBe('rtmp://127.0.0.1/live/k3y');
  });

  it('leaves any other host as it is', () => {
    expect(rtmpPushUrl('rtmp://ingest.example.com:1935/live', 'k3y')).toBe('rtmp://ingest.example.com:1935/live/k3y');
    expect(rtmpPushUrl('rtmp://localhost.example.com/live', 'k3y')).toBe('rtmp://localhost.example.com/live/k3y');
  });
});
