import { describe, expect, it } from 'vitest';
import { adultLandingLink } from './login-landing';

const channels = [
  { name: 'Popular', link: '/channel/group?id=1' },
  { name: 'Women', link: '/channel/channel?id=2' },
];

describe('adultLandingLink', () => {
  it('is the Women channel for a user who shows 18+ streams', () => {
    expect(adultLandingLink(true, channels)).toBe('/channel/channel?id=2');
  });

  it('is nothing when 18+ streams are off or unknown, or when there is no Women channel', () => {
    expect(adultLandingLink(false, channels)).toBeNull();
    expect(adultLandingLink(undefined, channels)).toBeNull();
    expect(adultLandingLink(true, channels.slice(0, 1))).toBeNull();
  });
});
