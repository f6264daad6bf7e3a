import { useState } from 'react';
import type { FormEvent } from 'react';
import { useNavigate } from 'react-router';
import type { SessionUser } from '../../../common/api/accounts';
import { MSG } from '../../../common/messages';
import { useSkinPath } from '../../app/skin';
import { formRefusal } from '../../api/field-errors';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { Modal } from '../../ui/Modal';
import { PasswordField } from '../../ui/PasswordField';
import { useToast } from '../../ui/Toast';
import { useDeleteAccount } from './api';
import styles from './SettingsPage.module.css';

/** Delete Account: what happens, then the password (or, without one, a recent sign-in) to confirm. */
export function DeleteAccount({ user }: { user: SessionUser }) {
  const remove = useDeleteAccount(user.user_id);
  const navigate = useNavigate();
  const skinPath = useSkinPath();
  const toast = useToast();
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [message, setMessage] = useState<string | null>(null);

  const close = (next: boolean) => {
    setOpen(next);
    if (!next) {
      setPassword('');
      setError(undefined);
      setMessage(null);
    }
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (remove.isPending) return;
    if (!user.social_only && password === '') return setError(MSG.currentPasswordRequired);
    try {
      await remove.mutateAsync(user.social_only ? undefined : password);
    } catch (failure) {
      const refusal = formRefusal(failure, new Set(['current_password']));
      setError(refusal.fields.current_password);
      setMessage(refusal.message);
      return;
    }
    toast({ title: MSG.accountDeleted, tone: 'success' });
    void navigate(skinPath('/'), { replace: true });
  };

  return (
    <div className={styles.danger}>
      <div>
        <strong>Delete your account</strong>
        <p>Your profile, streams and follows disappear and you are signed out everywhere.</p>
      </div>
      <Button variant="danger" onClick={() => setOpen(true)}>
        Delete Account
      </Button>
      <Modal
        open={open}
        onOpenChange={close}
        size="sm"
        title="Delete your account?"
        description="This cannot be undone from the site."
        footer={
          <>
            <Button variant="ghost" onClick={() => close(false)}>
              Cancel
            </Button>
            <Button variant="danger" type="submit" form="delete-account" loading={remove.isPending}>
              Delete My Account
            </Button>
          </>
        }
      >
        <form id="delete-account" className={styles.deleteForm} onSubmit={(e) => void onSubmit(e)} noValidate aria-label="Delete account">
          <ul className={styles.consequences}>
            <li>Your profile, streams, follows and saved cards are removed, and every session ends.</li>
            <li>Your username and email become free for anyone to use.</li>
            <li>Coins left in your wallet are not refunded; your payment and tip history stays in our books.</li>
            <li>As our privacy policy says, the data of a deleted account is archived for up to 3 months, then erased.</li>
          </ul>
          <Alert>{message}</Alert>
          {user.social_only ? (
            <p className={styles.muted}>You signed up with a social account: if you signed in more than 10 minutes ago, sign out and in again first.</p>
          ) : (
            <PasswordField
              label="Your password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => {
                setPassword(e.target.value);
                setError(undefined);
              }}
              error={error}
            />
          )}
        </form>
      </Modal>
    </div>
  );
}
