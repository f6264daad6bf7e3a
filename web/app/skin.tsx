/** The current skin comes from the route prefix; every in-app link keeps that prefix. */
import { useCallback } from 'react';
import { Link, useLocation } from 'react-router';
import type { LinkProps } from 'react-router';
import { SKINS, skinFromPath, stripSkinPrefix } from '../../common/skins';
import type { Skin } from '../../common/skins';

export function useSkin(): Skin {
  return SKINS[skinFromPath(useLocation().pathname)];
}

/** The path inside the skin ("/miitv/user/login" → "/user/login"), for active-link checks. */
export function useSkinlessPath(): string {
  return stripSkinPrefix(useLocation().pathname);
}

/** Adds the skin prefix to an app path; paths that already carry it, and external URLs, stay as they are. */
export function withSkinPrefix(skin: Skin, path: string): string {
  if (!path.startsWith('/') || path.startsWith('//') || !skin.prefix) return path;
  if (path === skin.prefix || path.startsWith(`${skin.prefix}/`) || path.startsWith(`${skin.prefix}?`)) return path;
  return path === '/' ? skin.prefix : `${skin.prefix}${path}`;
}

export function useSkinPath(): (path: string) => string {
  const skin = useSkin();
  return useCallback((path: string) => withSkinPrefix(skin, path), [skin]);
}

type SkinLinkProps = Omit<LinkProps, 'to'> & { to: string };

/** A router link to an app path in the current skin. */
export function SkinLink({ to, ...rest }: SkinLinkProps) {
  const skinPath = useSkinPath();
  return <Link to={skinPath(to)} {...rest} />;
}

/** A same-origin app path from a `redirect` query parameter, or null when it is anything else. */
export function safeRedirect(value: string | null): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  return value;
}
