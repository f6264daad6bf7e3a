import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';

describe('the conference configuration', () => {
  it('is the built-in mesh without ICE servers by default', () => {
    expect(loadConfig({}).conference).toEqual({ kind: 'builtin', iceServers: [] });
  });

  it('takes ICE servers as a JSON array and refuses anything else', () => {
    const servers = [{ urls: 'stun:stun.example.com:3478' }, { urls: ['turn:turn.example.com'], username: 'u', credential: 'c' }];
    expect(loadConfig({ ICE_SERVERS: JSON.stringify(servers) }).conference).toEqual({ kind: 'builtin', iceServers: servers });
    expect(() => loadConfig({ ICE_SERVERS: 'stun:stun.example.com' })).toThrow(/ICE_SERVERS/);
    expect(() => loadConfig({ ICE_SERVERS: '[{"url":"stun:x"}]' })).toThrow(/ICE_SERVERS/);
  });

  it('needs the domain, the app id and the secret for Jitsi, and never says the secret', () => {
    expect(() => loadConfig({ CONFERENCE: 'jitsi', CONFERENCE_DOMAIN: 'meet.example.com' })).toThrow(/JITSI_APP_ID/);
    const secret = 'a-secret-of-sixteen-or-more';
    let message = '';
    try {
      loadConfig({ CONFERENCE: 'jitsi', CONFERENCE_DOMAIN: 'meet.example.com', JITSI_APP_ID: 'limelight', JITSI_APP_SECRET: 'short' });
    } catch (error) {
      message = String(error);
    }
    expect(message).toMatch(/JITSI_APP_SECRET/);
    expect(message).not.toContain('short');
    expect(loadConfig({ CONFERENCE: 'jitsi', CONFERENCE_DOMAIN: 'meet.example.com', JITSI_APP_ID: 'limelight', JITSI_APP_SECRET: secret }).conference)
      .toEqual({ kind: 'jitsi', domain: 'meet.example.com', appId: 'limelight', appSecret: secret });
  });
});
