import type { Skin } from '../../common/skins';

/** Puts the skin's tokens on <html>, tags it for skins.css, and names the document after the skin. */
export function applySkin(skin: Skin, root: HTMLElement = document.documentElement): void {
  for (const [name, value] of Object.entries(skin.tokens)) root.style.setProperty(name, value);
  root.dataset.skin = skin.id;
  document.title = skin.name;
  const themeColor = document.querySelector<HTMLMetaElement>('meta[name="theme-color"]');
  const background = skin.tokens['--color-bg'];
  if (themeColor && background) themeColor.content = background;
}
