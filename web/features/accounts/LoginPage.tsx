import { useEffect, useState } from 'react';
import type { FormEvent } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { MSG } from '../../../common/messages';
import { safeRedirect, useSkin, useSkinPath } from '../../app/skin';
import { isApiError } from '../../api/client';
import { schemaErrors, serverFieldErrors } from '../../api/field-errors';
import type { Refusal } from '../../api/field-errors';
import { useFormState } from '../../api/use-form-state';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { Checkbox } from '../../ui/Checkbox';
import { PasswordField } from '../../ui/PasswordField';
import { useToast } from '../../ui/Toast';
import { useLogin, useSession } from './api';
import { AuthCard } from './AuthCard';
import { SignInNameField } from './CredentialFields';
import form from '../../ui/form.module.css';
import { useLoginLanding } from './login-landing';
import type { LoginLanding } from './login-landing';
import { SocialLoginFlow } from './social/SocialLoginFlow';
import { readSocialTicket, socialErrorText } from './social/social-ticket';
import { SocialSignIn } from './SocialSignIn';
import { useCaptchaSubmit } from './use-captcha';
import * as accounts from '../../../common/api/accounts';

/** Refused credentials and throttling carry a message meant for the user; anything else gets the spec's generic text. */
function loginFailure(error: unknown): Refusal {
  if (!isApiError(error)) return { fields: {}, message: MSG.loginGenericError };
  // 'forbidden': the password was right but the account is suspended (until when, why, whom to write to).
  if (error.code === 'unauthorized' || error.code === 'forbidden' || error.code === 'rate_limited' || error.code === 'proof_required') return { fields: {}, message: error.message };
  if (error.code === 'validation') {
    const fields = serverFieldErrors(error);
    if (fields.username || fields.password) return { fields, message: null };
    if (fields.altcha) return { fields: {}, message: error.message };
  }
  return { fields: {}, message: MSG.loginGenericError };
}

/** /user/login, and the landing of social callbacks (?social=<ticket>&type=<provider> or ?social_error=<code>). */
export function LoginPage() {
  const [params, setParams] = useSearchParams();
  // Read once: the ticket is a credential, so it leaves the address bar (and the history entry) at once.
  const [ticket] = useState(() => readSocialTicket(params));
  const [socialFailure, setSocialFailure] = useState(() => socialErrorText(params.get('social_error')));
  const landing = useLoginLanding(safeRedirect(params.get('redirect')));

  const carriesTicket = params.has('social');
  useEffect(() => {
    if (!carriesTicket) return;
    setParams(
      (q) => {
        q.delete('social');
        q.delete('type');
        return q;
      },
      { replace: true },
    );
  }, [carriesTicket, setParams]);

  if (ticket && socialFailure === null) return <SocialLoginFlow ticket={ticket} landing={landing} onFailed={setSocialFailure} />;
  return <LoginForm landing={landing} notice={socialFailure} />;
}

function LoginForm({ landing, notice }: { landing: LoginLanding; notice: string | null }) {
  const skin = useSkin();
  const skinPath = useSkinPath();
  const navigate = useNavigate();
  const session = useSession();
  const toast = useToast();
  const state = useFormState({ username: '', password: '', rememberMe: true }, notice);
  const { values, errors, field } = state;
  const login = useLogin();
  const submit = useCaptchaSubmit(login, state);

  // Already signed in when the page opened; a login made here goes on once its landing is known.
  if (session.isLoggedIn && login.isIdle) return <Navigate to={landing.fallback} replace />;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const input = { username: values.username.trim(), password: values.password.trim(), rememberMe: values.rememberMe, service: skin.id };
    void submit.send(input, schemaErrors(accounts.login.input, input), {
      onSuccess: (out) => {
        toast({ title: `Welcome back, ${out.user.username}!`, tone: 'success' });
        void landing.afterLogin(out.user.user_id).then((to) => navigate(to, { replace: true }));
      },
      refusal: loginFailure,
    });
  };

  return (
    <AuthCard title="Log In" subtitle={MSG.tagline}>
      <form className={form.form} onSubmit={onSubmit} noValidate aria-label="Log In">
        <Alert>{state.message}</Alert>
        <SignInNameField value={values.username} onChange={field('username')} error={errors.username} />
        <PasswordField
          label="Password"
          name="password"
          autoComplete="current-password"
          value={values.password}
          onChange={(e) => field('password')(e.target.value)}
          error={errors.password}
        />
        <div className={form.between}>
          <Checkbox checked={values.rememberMe} onChange={(e) => field('rememberMe')(e.target.checked)}>
            Remember me
          </Checkbox>
          <Link to={skinPath('/user/forgot-password')} className={form.link}>
            Forgot password?
          </Link>
        </div>
        {submit.element}
        {/* Busy until the page it lands on is known. */}
        <Button type="submit" size="lg" block loading={submit.loading || login.isSuccess}>
          Log In
        </Button>
        <p className={form.switch}>
          New here?{' '}
          <Link to={skinPath('/user/sign-up')} className={form.link}>
            Sign up for Free
          </Link>
        </p>
      </form>
      <SocialSignIn />
    </AuthCard>
  );
}
