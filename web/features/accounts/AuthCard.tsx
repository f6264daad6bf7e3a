import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useSkin } from '../../app/skin';
import { SkinLogo } from '../../skins/SkinLogo';
import styles from './AuthCard.module.css';

interface AuthCardProps {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  /** Wider card for longer forms (sign-up). */
  wide?: boolean;
}

const PERKS = ['Watch live and replay streams', 'Chat, tip and follow your favourite creators', 'Go live from OBS or post photos and videos'];

/** The frame of login and sign-up: the skin's brand panel beside a form card, legal footer below. */
export function AuthCard({ title, subtitle, children, wide = false }: AuthCardProps) {
  const skin = useSkin();
  return (
    <div className={styles.frame}>
      <aside className={styles.brand} aria-hidden="true">
        <SkinLogo skin={skin} size="lg" />
        <p className={styles.pitch}>Where creators go live.</p>
        <ul className={styles.perks}>
          {PERKS.map((perk) => (
            <li key={perk}>{perk}</li>
          ))}
        </ul>
      </aside>
      <div className={`${styles.card} ${wide ? styles.wide : ''}`}>
        <header className={styles.header}>
          <h1 className={styles.title}>{title}</h1>
          {subtitle && <p className={styles.subtitle}>{subtitle}</p>}
        </header>
        {children}
      </div>
      <footer className={styles.footer}>
        {(skin.links.appStore || skin.links.playStore) && (
          <nav aria-label="Get the app" className={styles.stores}>
            {skin.links.appStore && (
              <a href={skin.links.appStore} target="_blank" rel="noreferrer" className={styles.store}>
                <small>Download on the</small> App Store
              </a>
            )}
            {skin.links.playStore && (
              <a href={skin.links.playStore} target="_blank" rel="noreferrer" className={styles.store}>
                <small>Get it on</small> Google Play
              </a>
            )}
          </nav>
        )}
        <nav aria-label="Legal" className={styles.legal}>
          <Link to={skin.links.terms}>Terms of Service</Link>
          <Link to={skin.links.privacy}>Privacy Policy</Link>
        </nav>
        <p>© 2026 {skin.copyright}</p>
      </footer>
    </div>
  );
}
