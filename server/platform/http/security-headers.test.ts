import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from './security-headers';

const directive = (csp: string, name: string) => csp.split('; ').find((d) => d.startsWith(`${name} `) || d === name);

describe('the content security policy', () => {
  it('allows scripts from this origin only, and no frames but our own, by default', () => {
    const csp = contentSecurityPolicy();
    expect(directive(csp, 'script-src')).toBe("script-src 'self' 'wasm-unsafe-eval'");
    expect(directive(csp, 'frame-src')).toBeUndefined();
    expect(directive(csp, 'default-src')).toBe("default-src 'self'");
  });

  it('lets WebAssembly compile (the background blur) without allowing eval, and fetches only from this origin', () => {
    const csp = contentSecurityPolicy();
    expect(directive(csp, 'script-src')?.split(' ')).toContain("'wasm-unsafe-eval'");
    expect(csp).not.toMatch(/'unsafe-eval'/);
    expect(directive(csp, 'connect-src')).toBe("connect-src 'self' ws: wss:");
  });

  it("lets the meeting room load a Jitsi server's external API and frame, from that origin alone", () => {
    const csp = contentSecurityPolicy({ conferenceOrigin: 'https://meet.example.com' });
    expect(directive(csp, 'script-src')).toBe("script-src 'self' 'wasm-unsafe-eval' https://meet.example.com");
    expect(directive(csp, 'frame-src')).toBe('frame-src https://meet.example.com');
    expect(directive(csp, 'frame-ancestors')).toBe("frame-ancestors 'none'");
  });

  it("lets the host's page load Lovense's SDK (TOYS=lovense) and reach its origin, from that origin alone", () => {
    const csp = contentSecurityPolicy({ toySdkOrigin: 'https://api.lovense-api.com' });
    expect(directive(csp, 'script-src')).toBe("script-src 'self' 'wasm-unsafe-eval' https://api.lovense-api.com");
    expect(directive(csp, 'connect-src')).toBe("connect-src 'self' ws: wss: https://api.lovense-api.com wss://api.lovense-api.com");
    expect(directive(csp, 'frame-src')).toBeUndefined();
  });
});
