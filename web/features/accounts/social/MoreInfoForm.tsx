import type { FormEvent } from 'react';
import { useSkin } from '../../../app/skin';
import { formRefusal, schemaErrors } from '../../../api/field-errors';
import { useFormState } from '../../../api/use-form-state';
import { Alert } from '../../../ui/Alert';
import { Button } from '../../../ui/Button';
import { useSocialRegister } from '../api';
import { BirthdayField, birthdayText } from '../BirthdayField';
import type { BirthdayParts } from '../BirthdayField';
import { NewUsernameField } from '../CredentialFields';
import form from '../../../ui/form.module.css';
import { CountrySelect, TermsCheckbox } from '../SignUpFields';
import { useCaptchaSubmit } from '../use-captcha';
import type { SocialTicket } from './social-ticket';
import * as socialLogin from '../../../../common/api/social-login';

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
  const state = useFormState({
    username: suggestedUsername,
    birthday: { day: '', month: '', year: '' } as BirthdayParts,
    country: '',
    terms: false,
  });
  const { values, errors, field } = state;
  const register = useSocialRegister();
  const submit = useCaptchaSubmit(register, state);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
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
    void submit.send(input, problems, { onSuccess: (out) => onRegistered(out.user_id), refusal: (error) => formRefusal(error, FORM_FIELDS) });
  };

  return (
    <form className={form.form} onSubmit={onSubmit} noValidate aria-label="More Info Needed">
      <Alert tone="info">
        Signing up with <strong>{email}</strong>. A few more details and you are in.
      </Alert>
      <Alert>{state.message}</Alert>
      <NewUsernameField value={values.username} onChange={field('username')} error={errors.username} />
      <BirthdayField value={values.birthday} onChange={field('birthday')} error={errors.birthday} />
      <CountrySelect value={values.country} onChange={field('country')} error={errors.country} />
      <TermsCheckbox checked={values.terms} onChange={field('terms', 'terms_accepted')} error={errors.terms_accepted} />
      {submit.element}
      <Button type="submit" size="lg" block loading={submit.loading}>
        Continue
      </Button>
    </form>
  );
}
