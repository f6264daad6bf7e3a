import { socialStartPath } from '../../../common/api/social-login';
import type { SocialProvider } from '../../../common/api/social-login';
import { useSkin, useSkinPath } from '../../app/skin';
import { ButtonLink, buttonClass } from '../../ui/Button';
import { useAppConfig } from '../system';
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
        <a key={p.id} href={`${socialStartPath(p.id)}?service=${skin.id}`} className={buttonClass({ variant: 'secondary', block: true })}>
          <ProviderMark provider={p.id} />
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

/** Small brand glyphs, decorative: the button text names the provider. */
function ProviderMark({ provider }: { provider: SocialProvider }) {
  const paths: Record<SocialProvider, { d: string; fill: string }> = {
    google: { d: 'M21.6 12.2c0-.7-.1-1.4-.2-2H12v3.8h5.4a4.6 4.6 0 0 1-2 3v2.5h3.2c1.9-1.7 3-4.3 3-7.3ZM12 22c2.7 0 5-.9 6.6-2.4l-3.2-2.5c-.9.6-2 1-3.4 1-2.6 0-4.8-1.8-5.6-4.1H3.1v2.6A10 10 0 0 0 12 22Zm-5.6-8c-.2-.6-.3-1.3-.3-2s.1-1.4.3-2V7.4H3.1a10 10 0 0 0 0 9.2L6.4 14ZM12 6c1.5 0 2.8.5 3.8 1.5l2.9-2.9A10 10 0 0 0 3.1 7.4L6.4 10C7.2 7.7 9.4 6 12 6Z', fill: '#fff' },
    apple: { d: 'M16.4 12.6c0-2.4 2-3.6 2.1-3.7a4.6 4.6 0 0 0-3.6-2c-1.5-.2-3 .9-3.8.9-.8 0-2-.9-3.3-.8a4.9 4.9 0 0 0-4.1 2.5c-1.8 3-.5 7.5 1.3 10 .8 1.2 1.8 2.6 3.1 2.5 1.3 0 1.7-.8 3.3-.8 1.5 0 1.9.8 3.3.8s2.2-1.2 3-2.5c1-1.4 1.3-2.7 1.4-2.8-.1 0-2.7-1-2.7-4.1ZM14 5.4c.7-.8 1.2-2 1-3.1-1 0-2.2.7-2.9 1.5-.6.7-1.2 1.9-1 3 1.1.1 2.2-.6 2.9-1.4Z', fill: '#fff' },
    facebook: { d: 'M22 12a10 10 0 1 0-11.6 9.9v-7H7.9V12h2.5V9.8c0-2.5 1.5-3.9 3.8-3.9 1.1 0 2.2.2 2.2.2v2.5h-1.2c-1.2 0-1.6.8-1.6 1.6V12h2.8l-.5 2.9h-2.3v7A10 10 0 0 0 22 12Z', fill: '#1877f2' },
  };
  const { d, fill } = paths[provider];
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true">
      <path d={d} fill={fill} />
    </svg>
  );
}
