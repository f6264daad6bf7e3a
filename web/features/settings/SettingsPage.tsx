import { SkinLink } from '../../app/skin';
import { Page, Section } from '../../ui/Page';
import { useSession } from '../accounts';
import { MessageSettingsForm } from '../messages';
import { AccountForm } from './AccountForm';
import { AvatarUpload } from './AvatarUpload';
import { DeleteAccount } from './DeleteAccount';
import { InterestSettings } from './InterestSettings';
import { NotificationSettings } from './NotificationSettings';
import { PasswordForm } from './PasswordForm';
import styles from './SettingsPage.module.css';

/** /user/settings (behind RequireLogin): profile and account fields, interests, notifications, who can message you, then password and account deletion. */
export function SettingsPage() {
  const { user } = useSession();
  if (!user) return null;
  return (
    <Page title="Settings" width="narrow">
      <Section title="Profile" description="How you appear to others, and how we reach you.">
        <AvatarUpload user={user} />
        <AccountForm user={user} />
      </Section>
      <Section title="Interests" description="What you like to watch: at least three.">
        <InterestSettings userId={user.user_id} />
      </Section>
      <Section title="Notifications" description="Choose what we tell you about, and where.">
        <NotificationSettings userId={user.user_id} phone={user.phone} />
      </Section>
      <Section title="Messages" description="Who can start a conversation with you (conversations already open stay open), and whether messages creators send to all their fans reach you.">
        <MessageSettingsForm />
      </Section>
      {!user.social_only && (
        <Section title="Password" description="Changing it signs you out on your other devices.">
          <PasswordForm userId={user.user_id} />
        </Section>
      )}
      <Section title="Earnings and taxes" description="What you earned each month, and what we need before paying you out.">
        <p className={styles.links}>
          <SkinLink to="/user/statements">Statements</SkinLink>
          <SkinLink to="/user/tax-info">Tax information</SkinLink>
        </p>
      </Section>
      <Section title="Delete account">
        <DeleteAccount user={user} />
      </Section>
    </Page>
  );
}
