import { useState } from 'react';
import type { FormEvent } from 'react';
import { MSG } from '../../../common/messages';
import { formRefusal, hasErrors, schemaErrors } from '../../api/field-errors';
import type { FieldErrors } from '../../api/field-errors';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { PasswordField } from '../../ui/PasswordField';
import { useToast } from '../../ui/Toast';
import form from '../../ui/form.module.css';
import { useChangePassword } from './api';
import styles from './SettingsPage.module.css';
import * as accounts from '../../../common/api/accounts';

const FIELDS = new Set(['current_password', 'new_password', 'confirm_password']);
const EMPTY = { current_password: '', new_password: '', confirm_password: '' };

/** Change password: the current one, then the new one twice (the sign-up rules); other sessions end. */
export function PasswordForm({ userId }: { userId: number }) {
  const change = useChangePassword(userId);
  const toast = useToast();
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState<string | null>(null);

  const set = (name: keyof typeof EMPTY) => (value: string) => {
    setValues((v) => ({ ...v, [name]: value }));
    setErrors((e) => ({ ...e, [name]: undefined }));
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (change.isPending) return;
    setMessage(null);
    const problems = schemaErrors(accounts.changePassword.input, { id: userId, ...values });
    if (values.confirm_password === '') problems.confirm_password = MSG.passwordsDoNotMatch;
    if (hasErrors(problems)) return setErrors(problems);
    try {
      await change.mutateAsync(values);
    } catch (error) {
      const refusal = formRefusal(error, FIELDS);
      setErrors(refusal.fields);
      setMessage(refusal.message);
      return;
    }
    setValues(EMPTY);
    toast({ title: MSG.passwordChanged, tone: 'success' });
  };

  return (
    <form className={form.form} onSubmit={(e) => void onSubmit(e)} noValidate aria-label="Change password">
      <Alert>{message}</Alert>
      <PasswordField label="Current password" autoComplete="current-password" value={values.current_password} onChange={(e) => set('current_password')(e.target.value)} error={errors.current_password} />
      <div className={styles.pair}>
        <PasswordField label="New password" autoComplete="new-password" value={values.new_password} onChange={(e) => set('new_password')(e.target.value)} error={errors.new_password} hint="At least 8 characters." />
        <PasswordField label="Confirm new password" autoComplete="new-password" value={values.confirm_password} onChange={(e) => set('confirm_password')(e.target.value)} error={errors.confirm_password} />
      </div>
      <div className={styles.footer}>
        <Button type="submit" loading={change.isPending}>
          Change Password
        </Button>
      </div>
    </form>
  );
}
