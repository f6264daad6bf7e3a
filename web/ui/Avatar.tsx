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
  return (
    <span className={styles.avatar} style={style} aria-hidden="true">
      {name.slice(0, 1).toUpperCase()}
    </span>
  );
}
