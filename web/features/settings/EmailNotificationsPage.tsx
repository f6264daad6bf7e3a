import { useState } from 'react';
import type { FormEvent } from 'react';
import { Navigate, useSearchParams } from 'react-router';
import { MSG } from '../../../common/messages';
import { useSkinPath } from '../../app/skin';
import { failureMessage } from '../../api/field-errors';
import { Alert } from '../../ui/Alert';
import { Button, ButtonLink } from '../../ui/Button';
import { Checkbox } from '../../ui/Checkbox';
import { MailIcon } from '../../ui/icons';
import { Notice } from '../../ui/Notice';
import { useToast } from '../../ui/Toast';
import { AuthCard, useSession, PageSpinner } from '../accounts';
import form from '../../ui/form.module.css';
import { parseUserId } from '../social';
import { useEmailLink, useUpdateEmailLink } from './api';

/**
 * /user/notifications/email?id=&token= (spec part 1 §2): the signed link of a mail lets a signed-out
 * person turn e-mail notifications on or off; a signed-in visitor goes home.
 */
export function EmailNotificationsPage() {
  const skinPath = useSkinPath();
  const [query] = useSearchParams();
  const session = useSession();
  const id = parseUserId(query.get('id'));
  const token = query.get('token') ?? '';
  const valid = id !== null && token.length > 0 && token.length <= 200;
  const link = useEmailLink(id ?? 0, token, valid && !session.isPending && !session.isLoggedIn);

  if (session.isPending) return <PageSpinner />;
  if (session.isLoggedIn) return <Navigate to={skinPath('/')} replace />;
  if (!valid || link.isError) {
    return (
      <Notice title="This link is not valid" art={<MailIcon size={56} />} actions={<ButtonLink to={skinPath('/')}>Go to the home page</ButtonLink>}>
        {link.isError ? failureMessage(link.error) : 'The link in your email is incomplete.'} You can also change your notifications in Settings after logging in.
      </Notice>
    );
  }
  if (!link.data || id === null) return <PageSpinner />;
  return <EmailNotificationsForm key={String(link.data.notify_via_email)} id={id} token={token} username={link.data.username} initial={link.data.notify_via_email} />;
}

function EmailNotificationsForm({ id, token, username, initial }: { id: number; token: string; username: string; initial: boolean }) {
  const update = useUpdateEmailLink(id, token);
  const toast = useToast();
  const [notify, setNotify] = useState(initial);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    update.mutate(notify, { onSuccess: () => toast({ title: MSG.settingsUpdated, tone: 'success' }) });
  };

  return (
    <AuthCard title="Email Notifications" subtitle={`For @${username}`}>
      <form className={form.form} onSubmit={onSubmit} noValidate aria-label="Email notifications">
        <Alert>{update.error && failureMessage(update.error)}</Alert>
        <Checkbox checked={notify} onChange={(e) => setNotify(e.target.checked)}>
          Notify me via email
        </Checkbox>
        <Button type="submit" size="lg" block loading={update.isPending}>
          Update
        </Button>
      </form>
    </AuthCard>
  );
}
