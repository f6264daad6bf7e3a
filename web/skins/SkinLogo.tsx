import type { ReactNode } from 'react';
import type { Skin, SkinId } from '../../common/skins';
import styles from './SkinLogo.module.css';

const MARKS: Record<SkinId, ReactNode> = {
  limelight: (
    <>
      <circle cx="16" cy="16" r="13" fill="var(--color-accent)" />
      <circle cx="16" cy="16" r="5" fill="var(--color-bg)" />
      <path d="M16 3v4M16 25v4M3 16h4M25 16h4" stroke="var(--color-bg)" strokeWidth="2.5" />
    </>
  ),
  miitv: (
    <>
      <rect x="2" y="6" width="28" height="20" rx="4" fill="var(--color-accent)" />
      <path d="M13 11l8 5-8 5z" fill="var(--color-bg)" />
    </>
  ),
  personas: (
    <>
      <circle cx="12" cy="16" r="9" fill="var(--color-accent)" />
      <circle cx="21" cy="16" r="9" fill="none" stroke="var(--color-accent)" strokeWidth="3" />
    </>
  ),
  afterdark: (
    <>
      <path d="M20 3a13 13 0 1 0 9 22A11 11 0 0 1 20 3z" fill="var(--color-accent)" />
      <circle cx="24" cy="9" r="1.6" fill="var(--color-accent)" />
    </>
  ),
};

/** The skin's mark and name, drawn with its tokens. */
export function SkinLogo({ skin, showName = true, size = 'md' }: { skin: Skin; showName?: boolean; size?: 'md' | 'lg' }) {
  return (
    <span className={`${styles.logo} ${styles[size]}`}>
      <svg className={styles.mark} viewBox="0 0 32 32" aria-hidden="true">
        {MARKS[skin.id]}
      </svg>
      {showName && <span className={styles.name}>{skin.name}</span>}
    </span>
  );
}
