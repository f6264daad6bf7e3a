import styles from './Avatar.module.css';

interface AvatarProps {
  name: string;
  src?: string | null;
  size?: number;
}

/** A round picture of a user, or the first letter of their name on the accent colour. */
export function Avatar({ name, src, size = 32 }: AvatarProps) {
  const style = { width: size, height: size, fontSize: Math.round(size * 0.45) };
  if (src) return <img className={styles.avatar} src={src} alt="" style={style} />;
  // The letter is drawn by CSS, not text: a control holding the avatar is named by what it says (its
  // accessible name must contain its visible text, and checkers count even hidden text as visible).
  return <span className={styles.avatar} style={style} data-initial={name.slice(0, 1).toUpperCase()} aria-hidden="true" />;
}
