import { describe, expect, it } from 'vitest';
import { SKINS } from '../../common/skins';
import { safeRedirect, withSkinPrefix } from './skin';

describe('withSkinPrefix', () => {
  it('adds the prefix once and leaves the default skin and external links alone', () => {
    expect(withSkinPrefix(SKINS.miitv, '/user/login')).toBe('/miitv/user/login');
    expect(withSkinPrefix(SKINS.miitv, '/miitv/help')).toBe('/miitv/help');
    expect(withSkinPrefix(SKINS.miitv, '/')).toBe('/miitv');
    expect(withSkinPrefix(SKINS.miitv, '/miitvx')).toBe('/miitv/miitvx');
    expect(withSkinPrefix(SKINS.limelight, '/user/login')).toBe('/user/login');
    expect(withSkinPrefix(SKINS.afterdark, 'https://apps.apple.com/')).toBe('https://apps.apple.com/');
  });
});

describe('safeRedirect', () => {
  it('accepts same-origin paths only', () => {
    expect(safeRedirect('/dashboard?x=1')).toBe('/dashboard?x=1');
    expect(safeRedirect('//evil.example')).toBe(null);
    expect(safeRedirect('/\\evil.example')).toBe(null);
    expect(safeRedirect('https://evil.example')).toBe(null);
    expect(safeRedirect(null)).toBe(null);
  });
});
