import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';

describe('configuration', () => {
  it('uses the embedded defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 3000, rtmpPort: 1935, captcha: true, seedDemo: true, role: 'all' });
    expect(config.database.kind).toBe('pglite');
  });

  it('seeds no demo data in production unless asked to', () => {
    expect(loadConfig({ NODE_ENV: 'production' }).seedDemo).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', SEED_DEMO: 'on' }).seedDemo).toBe(true);
    expect(loadConfig({ SEED_DEMO: 'off' }).seedDemo).toBe(false);
  });

  it('names what is wrong', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'not a url' })).toThrow(/DATABASE_URL/);
  });
});
