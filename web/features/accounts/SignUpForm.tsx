import type { FormEvent } from 'react';
import { Link } from 'react-router';
import { useSkin, useSkinPath } from '../../app/skin';
import { formRefusal, schemaErrors } from '../../api/field-errors';
import { useFormState } from '../../api/use-form-state';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/TextField';
import { useRegister } from './api';
import { BirthdayField, birthdayText } from './BirthdayField';
import type { BirthdayParts } from './BirthdayField';
import { NewPasswordFields, NewUsernameField, withPasswordMatch } from './CredentialFields';
import form from '../../ui/form.module.css';
import { CountrySelect, SalutationSelect, TermsCheckbox } from './SignUpFields';
import type { Salutation } from './SignUpFields';
import { useCaptchaSubmit } from './use-captcha';
import * as accounts from '../../../common/api/accounts';

const FORM_FIELDS = new Set(['prefix', 'username', 'email', 'password', 'confirm_password', 'birthday', 'country', 'terms_accepted']);

const EMPTY = {
  prefix: '' as Salutation | '',
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
  const state = useFormState<Values>(EMPTY);
  const { values, errors, field } = state;
  const register = useRegister();
  const submit = useCaptchaSubmit(register, state);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
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
    const problems = withPasswordMatch(schemaErrors(accounts.register.input, input), 'confirm_password', input.password, input.confirm_password);
    void submit.send(input, problems, { onSuccess: (out) => onRegistered(out.user_id), refusal: (error) => formRefusal(error, FORM_FIELDS) });
  };

  return (
    <form className={form.form} onSubmit={onSubmit} noValidate aria-label="Sign up">
      <Alert>{state.message}</Alert>
      <div className={form.row}>
        <SalutationSelect label="Salutation (optional)" placeholder="None" value={values.prefix} onChange={field('prefix')} error={errors.prefix} />
        <NewUsernameField value={values.username} onChange={field('username')} error={errors.username} />
      </div>
      <TextField label="Email" type="email" autoComplete="email" value={values.email} onChange={(e) => field('email')(e.target.value)} error={errors.email} />
      <NewPasswordFields
        label="Password"
        password={values.password}
        confirm={values.confirm_password}
        onPasswordChange={field('password')}
        onConfirmChange={field('confirm_password')}
        passwordError={errors.password}
        confirmError={errors.confirm_password}
        sideBySide
      />
      <BirthdayField value={values.birthday} onChange={field('birthday')} error={errors.birthday} />
      <CountrySelect value={values.country} onChange={field('country')} error={errors.country} />
      <TermsCheckbox checked={values.terms} onChange={field('terms', 'terms_accepted')} error={errors.terms_accepted} />
      {submit.element}
      <Button type="submit" size="lg" block loading={submit.loading}>
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
