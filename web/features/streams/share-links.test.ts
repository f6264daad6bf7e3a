import { describe, expect, it } from 'vitest';
import { shareLinks } from './share-links';

describe('shareLinks', () => {
  it('encodes the stream address into each network', () => {
    const links = shareLinks('https://x.test/streams/stream-view?id=4', 'Hi & bye');
    expect(links.map((l) => l.name)).toEqual(['Facebook', 'X (Twitter)', 'WhatsApp', 'Telegram', 'Reddit', 'Email']);
    expect(links[0]?.href).toBe('https://www.facebook.com/sharer/sharer.php?u=https%3A%2F%2Fx.test%2Fstreams%2Fstream-view%3Fid%3D4');
    expect(links[5]?.href).toContain('subject=Hi%20%26%20bye');
  });
});
