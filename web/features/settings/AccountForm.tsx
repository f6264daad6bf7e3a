import { useState } from 'react';
import type { FormEvent } from 'react';
import { useNavigate } from 'react-router';
import type { SessionUser } from '../../../common/api/accounts';
import { MSG } from '../../../common/messages';
import { useSkin, useSkinPath } from '../../app/skin';
import { formRefusal, hasErrors, type FieldErrors } from '../../api/field-errors';
import { useFormState } from '../../api/use-form-state';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { PasswordField } from '../../ui/PasswordField';
import { Switch } from '../../ui/Switch';
import { TextArea } from '../../ui/TextArea';
import { TextField } from '../../ui/TextField';
import { useToast } from '../../ui/Toast';
import { LIMITS } from '../../../common/constants';
import { PHONE_MAX_INPUT } from '../../../common/rules/phone';
import form from '../../ui/form.module.css';
import { SalutationSelect } from '../accounts';
import { accountProblems, accountValuesOf, changedParams } from './account-fields';
import type { AccountValues } from './account-fields';
import { usePreferences, useUpdatePreferences, useUpdateUserInfo } from './api';
import styles from './SettingsPage.module.css';

// The spec's order (part 2 §2 screen 1).
const SALUTATION_ORDER = ['MS', 'MISS', 'MRS', 'MR', 'OTHER'] as const;
const FIELDS = new Set(['prefix', 'name', 'email', 'description', 'terms_accepted', 'phone', 'current_password']);

/** Salutation, full name, email, phone, description, terms and (adult skins) the 18+ switch; only changes are sent. */
export function AccountForm({ user }: { user: SessionUser }) {
  const skin = useSkin();
  const skinPath = useSkinPath();
  const navigate = useNavigate();
  const toast = useToast();
  const preferences = usePreferences(user.user_id);
  const saveInfo = useUpdateUserInfo(user.user_id);
  const savePreferences = useUpdatePreferences(user.user_id);
  const initial = accountValuesOf(user);
  const state = useFormState<AccountValues>(initial);
  const { values, field } = state;
  const [show18, setShow18] = useState<boolean | null>(null);
  // A new email needs the current password (the server refuses it otherwise): asked only then.
  const [currentPassword, setCurrentPassword] = useState('');

  const params = changedParams(initial, values);
  const emailChanging = params.email !== undefined;
  const problems: FieldErrors = {
    ...accountProblems(initial, params),
    ...(emailChanging && currentPassword === '' ? { current_password: MSG.currentPasswordForEmail } : {}),
  };
  const errors = { ...state.errors, ...problems };
  const savedShow18 = preferences.data?.filters.stream_show_18plus;
  const show18Changed = skin.flags.adultContent && show18 !== null && show18 !== savedShow18;
  const changed = Object.keys(params).length > 0 || show18Changed;
  const saving = saveInfo.isPending || savePreferences.isPending;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!changed || hasErrors(problems) || saving) return;
    state.setMessage(null);
    try {
      if (show18Changed) await savePreferences.mutateAsync({ stream_show_18plus: show18 });
      if (Object.keys(params).length > 0) await saveInfo.mutateAsync(emailChanging ? { ...params, current_password: currentPassword } : params);
    } catch (error) {
      state.refuse(formRefusal(error, FIELDS));
      return;
    }
    setShow18(null);
    setCurrentPassword('');
    toast({ title: MSG.settingsUpdated, tone: 'success' });
    // Declining the terms in settings signs the user out (spec part 2 §4).
    if (params.terms_accepted === false) void navigate(skinPath('/user/logout'));
  };

  return (
    <form className={form.form} onSubmit={(e) => void onSubmit(e)} noValidate aria-label="Account settings">
      <Alert>{state.message}</Alert>
      <div className={styles.row}>
        <SalutationSelect label="Salutation (optional)" placeholder="Please Select" order={SALUTATION_ORDER} value={values.prefix} onChange={field('prefix')} error={errors.prefix} />
        <TextField label="Full Name" autoComplete="name" value={values.name} onChange={(e) => field('name')(e.target.value)} error={errors.name} maxLength={LIMITS.fullname.max} />
      </div>
      <TextField label="Email" type="email" autoComplete="email" value={values.email} onChange={(e) => field('email')(e.target.value)} error={errors.email} />
      {emailChanging && (
        <PasswordField
          label="Current password"
          autoComplete="current-password"
          value={currentPassword}
          onChange={(e) => setCurrentPassword(e.target.value)}
          error={currentPassword === '' ? undefined : errors.current_password}
          hint="Needed to change your email."
        />
      )}
      <TextField
        label="Phone number (optional)"
        type="tel"
        autoComplete="tel"
        value={values.phone}
        onChange={(e) => field('phone')(e.target.value)}
        error={errors.phone}
        maxLength={PHONE_MAX_INPUT}
        hint="With your country code, for example +1 555 123 4567. Text-message notifications go here."
      />
      <TextArea
        label="Description"
        value={values.description}
        onChange={(e) => field('description')(e.target.value)}
        error={errors.description}
        maxLength={LIMITS.description.max}
        rows={4}
        hint={`${values.description.length} / ${LIMITS.description.max}`}
      />
      <div className={styles.switches}>
        <Switch
          label="I accept the Terms of Service"
          description={values.terms ? undefined : 'Saving without accepting the terms signs you out.'}
          checked={values.terms}
          onCheckedChange={field('terms', 'terms_accepted')}
        />
        {skin.flags.adultContent && (
          <Switch
            label="Show 18+ streams"
            description="Adult streams appear in your channels and search."
            checked={show18 ?? savedShow18 ?? false}
            onCheckedChange={setShow18}
            disabled={!preferences.data}
          />
        )}
      </div>
      <div className={styles.footer}>
        <Button type="submit" loading={saving} disabled={!changed || hasErrors(problems)}>
          Save Changes
        </Button>
      </div>
    </form>
  );
}
