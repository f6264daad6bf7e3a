import { useState } from 'react';
import type { FormEvent } from 'react';
import { useNavigate } from 'react-router';
import type { SessionUser } from '../../../common/api/accounts';
import { MSG } from '../../../common/messages';
import { useSkin, useSkinPath } from '../../app/skin';
import { failureMessage, hasErrors, serverFieldErrors } from '../../api/field-errors';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { Select } from '../../ui/Select';
import { Switch } from '../../ui/Switch';
import { TextArea } from '../../ui/TextArea';
import { TextField } from '../../ui/TextField';
import { useToast } from '../../ui/Toast';
import { LIMITS } from '../../../common/constants';
import { accountProblems, accountValuesOf, changedParams } from './account-fields';
import type { AccountValues, Salutation } from './account-fields';
import { usePreferences, useUpdatePreferences, useUpdateUserInfo } from './api';
import styles from './SettingsPage.module.css';

// The spec's order (part 2 §2 screen 1).
const SALUTATION_OPTIONS = (['MS', 'MISS', 'MRS', 'MR', 'OTHER'] as const).map((s) => ({ value: s, label: s.charAt(0) + s.slice(1).toLowerCase() }));
const FIELDS = new Set(['prefix', 'name', 'email', 'description', 'terms_accepted']);

/** Salutation, full name, email, description, terms and (adult skins) the 18+ switch; only changes are sent. */
export function AccountForm({ user }: { user: SessionUser }) {
  const skin = useSkin();
  const skinPath = useSkinPath();
  const navigate = useNavigate();
  const toast = useToast();
  const preferences = usePreferences(user.user_id);
  const saveInfo = useUpdateUserInfo(user.user_id);
  const savePreferences = useUpdatePreferences(user.user_id);
  const initial = accountValuesOf(user);
  const [values, setValues] = useState<AccountValues>(initial);
  const [show18, setShow18] = useState<boolean | null>(null);
  const [serverErrors, setServerErrors] = useState<Partial<Record<string, string>>>({});
  const [message, setMessage] = useState<string | null>(null);

  const params = changedParams(initial, values);
  const problems = accountProblems(initial, params);
  const errors = { ...serverErrors, ...problems };
  const savedShow18 = preferences.data?.filters.stream_show_18plus;
  const show18Changed = skin.flags.adultContent && show18 !== null && show18 !== savedShow18;
  const changed = Object.keys(params).length > 0 || show18Changed;
  const saving = saveInfo.isPending || savePreferences.isPending;

  const set = <K extends keyof AccountValues>(field: K, errorField: string = field) => (value: AccountValues[K]) => {
    setValues((v) => ({ ...v, [field]: value }));
    setServerErrors((e) => ({ ...e, [errorField]: undefined }));
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!changed || hasErrors(problems) || saving) return;
    setMessage(null);
    try {
      if (show18Changed) await savePreferences.mutateAsync({ stream_show_18plus: show18 });
      if (Object.keys(params).length > 0) await saveInfo.mutateAsync(params);
    } catch (error) {
      const fields = serverFieldErrors(error);
      const shown = Object.fromEntries(Object.entries(fields).filter(([field]) => FIELDS.has(field)));
      setServerErrors(shown);
      if (!hasErrors(shown)) setMessage(failureMessage(error));
      return;
    }
    setShow18(null);
    toast({ title: MSG.settingsUpdated, tone: 'success' });
    // Declining the terms in settings signs the user out (spec part 2 §4).
    if (params.terms_accepted === false) void navigate(skinPath('/user/logout'));
  };

  return (
    <form className={styles.form} onSubmit={(e) => void onSubmit(e)} noValidate aria-label="Account settings">
      <Alert>{message}</Alert>
      <div className={styles.row}>
        <Select
          label="Salutation"
          placeholder="Please Select"
          options={SALUTATION_OPTIONS}
          value={values.prefix}
          onChange={(e) => set('prefix')(e.target.value as Salutation | '')}
          error={errors.prefix}
        />
        <TextField label="Full Name" autoComplete="name" value={values.name} onChange={(e) => set('name')(e.target.value)} error={errors.name} maxLength={LIMITS.fullname.max} />
      </div>
      <TextField label="Email" type="email" autoComplete="email" value={values.email} onChange={(e) => set('email')(e.target.value)} error={errors.email} />
      <TextArea
        label="Description"
        value={values.description}
        onChange={(e) => set('description')(e.target.value)}
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
          onCheckedChange={set('terms', 'terms_accepted')}
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
