import { describe, expect, it } from 'vitest';
import { shareLinks } from './share-links';

describe('shareLinks', () => {
  it('encodes the stream address into each network', () => {
    const links = shareLinks('https://x.test/streams/stream-view?id=4', 'Hi & bye');
    expect(links.map((l) => l.name)).toEqual(['Facebook', 'X (Twitter)', 'WhatsApp', 'Telegram', 'Reddit', 'Skype', 'Email', 'SMS', 'Pinterest', 'Weibo']);
    expect(links[0]?.href).toBe('https://www.facebook.com/sharer/sharer.php?u=https%3A%2F%2Fx.test%2Fstreams%2Fstream-view%3Fid%3D4');
    const byName = Object.fromEntries(links.map((l) => [l.name, l.href]));
    expect(byName.Email).toContain('subject=Hi%20%26%20bye');
    expect(byName.SMS).toBe('sms:?&body=Hi%20%26%20bye%20https%3A%2F%2Fx.test%2Fstreams%2Fstream-view%3Fid%3D4');
    for (const name of ['Skype', 'Pinterest', 'Weibo']) expect(byName[name]).toContain('url=https%3A%2F%2Fx.test');
  });
});
