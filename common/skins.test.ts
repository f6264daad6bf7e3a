import { describe, expect, it } from 'vitest';
import { SKINS, SKIN_IDS, skinFromPath, stripSkinPrefix } from './skins';

describe('skins', () => {
  it('resolves the skin from the route prefix', () => {
    expect(skinFromPath('/miitv/user/login')).toBe('miitv');
    expect(skinFromPath('/afterdark')).toBe('afterdark');
    expect(skinFromPath('/user/login')).toBe('limelight');
    expect(skinFromPath('/miitvx/user')).toBe('limelight');
  });
  it('strips the prefix', () => {
    expect(stripSkinPrefix('/personas/user/account')).toBe('/personas/user/account'.slice('/personas'.length));
    expect(stripSkinPrefix('/personas')).toBe('/');
    expect(stripSkinPrefix('/channel/group')).toBe('/channel/group');
  });
  it('follows the skin table: adult content in one skin, ads in two, 14+ default in one', () => {
    const all = SKIN_IDS.map((id) => SKINS[id]);
    expect(all.filter((s) => s.flags.adultContent).map((s) => s.id)).toEqual(['afterdark']);
    expect(all.filter((s) => s.flags.adSelection).map((s) => s.id)).toEqual(['limelight', 'miitv']);
    expect(all.every((s) => s.flags.subscriptions)).toBe(true);
    expect(all.filter((s) => s.defaultRating === 'PLUS_14').map((s) => s.id)).toEqual(['miitv']);
    expect(SKINS.personas.labels.getCoins).toBe('Fund Wallet');
    expect(SKINS.miitv.uploadPath).toBe('/user/upload-video');
    expect(SKINS.afterdark.toastMs).toBe(5000);
  });
});
