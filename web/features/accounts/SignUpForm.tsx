import { useState } from 'react';
import type { FormEvent } from 'react';
import { Link } from 'react-router';
import { accounts } from '../../../common/api';
import { SALUTATIONS } from '../../../common/api/accounts';
import { MSG } from '../../../common/messages';
import { useSkin, useSkinPath } from '../../app/skin';
import { failureMessage, hasErrors, schemaErrors, serverFieldErrors } from '../../api/field-errors';
import type { FieldErrors } from '../../api/field-errors';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { PasswordField } from '../../ui/PasswordField';
import { Select } from '../../ui/Select';
import { TextField } from '../../ui/TextField';
import { useRegister } from './api';
import { BirthdayField, birthdayText } from './BirthdayField';
import type { BirthdayParts } from './BirthdayField';
import form from './form.module.css';
import { CountrySelect, TermsCheckbox } from './SignUpFields';
import { useCaptcha } from './use-captcha';

const SALUTATION_OPTIONS = SALUTATIONS.map((s) => ({ value: s, label: s.charAt(0) + s.slice(1).toLowerCase() }));
const FORM_FIELDS = new Set(['prefix', 'username', 'email', 'password', 'confirm_password', 'birthday', 'country', 'terms_accepted']);

const EMPTY = {
  prefix: '' as (typeof SALUTATIONS)[number] | '',
  username: '',
  email: '',
  password: '',
  confirm_password: '',
  birthday: { day: '', month: '', year: '' } as BirthdayParts,
  country: '',
  terms: false,
};
type Values = typeof EMPTY;

/** Step one of sign-up: the account fields, checked on the client with the contract's own schema. */
export function SignUpForm({ onRegistered }: { onRegistered: (userId: number) => void }) {
  const skin = useSkin();
  const skinPath = useSkinPath();
  const register = useRegister();
  const captcha = useCaptcha();
  const [values, setValues] = useState<Values>(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState<string | null>(null);

  const update = <K extends keyof Values>(field: K, errorField: string = field) => (value: Values[K]) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [errorField]: undefined }));
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setMessage(null);
    const input = {
      ...(values.prefix ? { prefix: values.prefix } : {}),
      username: values.username.trim(),
      email: values.email.trim(),
      password: values.password,
      confirm_password: values.confirm_password,
      birthday: birthdayText(values.birthday),
      country: values.country,
      terms_accepted: values.terms,
      service: skin.id,
    };
    const problems = schemaErrors(accounts.register.input, input);
    // The schema compares the passwords only once every field passes; say it at once.
    if (!problems.confirm_password && input.password && input.confirm_password !== input.password) {
      problems.confirm_password = MSG.passwordsDoNotMatch;
    }
    setErrors(problems);
    if (hasErrors(problems)) return;

    const solved = await captcha.solve();
    if (!solved.ok) {
      setMessage(captcha.failureMessage);
      return;
    }
    register.mutate(
      { ...input, ...solved.fields },
      {
        onSuccess: (out) => onRegistered(out.user_id),
        onError: (error) => {
          const fields = serverFieldErrors(error);
          const shown = Object.fromEntries(Object.entries(fields).filter(([field]) => FORM_FIELDS.has(field)));
          setErrors(shown);
          if (!hasErrors(shown)) setMessage(failureMessage(error));
        },
        onSettled: () => captcha.reset(),
      },
    );
  };

  return (
    <form className={form.form} onSubmit={(e) => void onSubmit(e)} noValidate aria-label="Sign up">
      <Alert>{message}</Alert>
      <div className={form.row}>
        <Select
          label="Salutation (optional)"
          placeholder="None"
          options={SALUTATION_OPTIONS}
          value={values.prefix}
          onChange={(e) => update('prefix')(e.target.value as Values['prefix'])}
          error={errors.prefix}
        />
        <TextField
          label="Username"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          value={values.username}
          onChange={(e) => update('username')(e.target.value)}
          error={errors.username}
          hint="3 to 30 letters, digits, dots or underscores"
        />
      </div>
      <TextField label="Email" type="email" autoComplete="email" value={values.email} onChange={(e) => update('email')(e.target.value)} error={errors.email} />
      <div className={form.row}>
        <PasswordField label="Password" autoComplete="new-password" value={values.password} onChange={(e) => update('password')(e.target.value)} error={errors.password} />
        <PasswordField
          label="Confirm Password"
          autoComplete="new-password"
          value={values.confirm_password}
          onChange={(e) => update('confirm_password')(e.target.value)}
          error={errors.confirm_password}
        />
      </div>
      <BirthdayField value={values.birthday} onChange={update('birthday')} error={errors.birthday} />
      <CountrySelect value={values.country} onChange={update('country')} error={errors.country} />
      <TermsCheckbox checked={values.terms} onChange={update('terms', 'terms_accepted')} error={errors.terms_accepted} />
      {captcha.element}
      <Button type="submit" size="lg" block loading={captcha.verifying || register.isPending} disabled={!captcha.ready}>
        Create Account
      </Button>
      <p className={form.switch}>
        Already have an account?{' '}
        <Link to={skinPath('/user/login')} className={form.link}>
          Log In
        </Link>
      </p>
    </form>
  );
}
