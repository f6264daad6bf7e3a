import { useSkin, useSkinPath } from '../../app/skin';
import { ButtonLink, buttonClass } from '../../ui/Button';
import { useAppConfig } from '../system/api';
import styles from './SocialSignIn.module.css';

const PROVIDERS = [
  { id: 'google', label: 'Continue with Google' },
  { id: 'apple', label: 'Continue with Apple' },
  { id: 'facebook', label: 'Continue with Facebook' },
] as const;

/** Social sign-in buttons for the providers this installation configured; one skin shows a migration notice instead of Facebook. */
export function SocialSignIn() {
  const skin = useSkin();
  const skinPath = useSkinPath();
  const config = useAppConfig();
  const social = config.data?.social;
  const providers = PROVIDERS.filter((p) => social?.[p.id] && !(p.id === 'facebook' && skin.flags.facebookMigrated));
  const showMigration = skin.flags.facebookMigrated;
  if (providers.length === 0 && !showMigration) return null;

  return (
    <div className={styles.social}>
      <div className={styles.divider}>
        <span>or</span>
      </div>
      {providers.map((p) => (
        <a key={p.id} href={`/api/auth/${p.id}?service=${skin.id}`} className={buttonClass({ variant: 'secondary', block: true })}>
          {p.label}
        </a>
      ))}
      {showMigration && (
        <div className={styles.notice} role="note">
          <p>
            <strong>Used Facebook to sign in?</strong> Facebook sign-in is no longer available and your account was migrated. Reset your
            password to sign in with your username or email.
          </p>
          <ButtonLink to={skinPath('/user/forgot-password')} variant="secondary" size="sm">
            Reset Password
          </ButtonLink>
        </div>
      )}
    </div>
  );
}
