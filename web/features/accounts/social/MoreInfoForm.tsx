import { useState } from 'react';
import type { FormEvent } from 'react';
import { socialLogin } from '../../../../common/api';
import { useSkin } from '../../../app/skin';
import { failureMessage, hasErrors, schemaErrors, serverFieldErrors } from '../../../api/field-errors';
import type { FieldErrors } from '../../../api/field-errors';
import { Alert } from '../../../ui/Alert';
import { Button } from '../../../ui/Button';
import { TextField } from '../../../ui/TextField';
import { useSocialRegister } from '../api';
import { BirthdayField, birthdayText } from '../BirthdayField';
import type { BirthdayParts } from '../BirthdayField';
import form from '../form.module.css';
import { CountrySelect, TermsCheckbox } from '../SignUpFields';
import { useCaptcha } from '../use-captcha';
import type { SocialTicket } from './social-ticket';

const FORM_FIELDS = new Set(['username', 'birthday', 'country', 'terms_accepted']);

interface MoreInfoFormProps {
  ticket: SocialTicket;
  suggestedUsername: string;
  email: string;
  onRegistered: (userId: number) => void;
}

/** "More Info Needed": what a verified social identity still lacks to become an account. */
export function MoreInfoForm({ ticket, suggestedUsername, email, onRegistered }: MoreInfoFormProps) {
  const skin = useSkin();
  const register = useSocialRegister();
  const captcha = useCaptcha();
  const [values, setValues] = useState({
    username: suggestedUsername,
    birthday: { day: '', month: '', year: '' } as BirthdayParts,
    country: '',
    terms: false,
  });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState<string | null>(null);

  const update = <K extends keyof typeof values>(field: K, errorField: string = field) => (value: (typeof values)[K]) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [errorField]: undefined }));
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setMessage(null);
    const input = {
      social_media_type: ticket.type,
      social_media_token: ticket.token,
      username: values.username.trim(),
      birthday: birthdayText(values.birthday),
      country: values.country,
      terms_accepted: values.terms,
      service: skin.id,
    };
    const problems = schemaErrors(socialLogin.socialRegister.input, input);
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
          const shown = Object.fromEntries(Object.entries(serverFieldErrors(error)).filter(([field]) => FORM_FIELDS.has(field)));
          setErrors(shown);
          if (!hasErrors(shown)) setMessage(failureMessage(error));
        },
        onSettled: () => captcha.reset(),
      },
    );
  };

  return (
    <form className={form.form} onSubmit={(e) => void onSubmit(e)} noValidate aria-label="More Info Needed">
      <Alert tone="info">
        Signing up with <strong>{email}</strong>. A few more details and you are in.
      </Alert>
      <Alert>{message}</Alert>
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
      <BirthdayField value={values.birthday} onChange={update('birthday')} error={errors.birthday} />
      <CountrySelect value={values.country} onChange={update('country')} error={errors.country} />
      <TermsCheckbox checked={values.terms} onChange={update('terms', 'terms_accepted')} error={errors.terms_accepted} />
      {captcha.element}
      <Button type="submit" size="lg" block loading={captcha.verifying || register.isPending} disabled={!captcha.ready}>
        Continue
      </Button>
    </form>
  );
}
