import { useState } from 'react';
import type { FormEvent } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router';
import { accounts } from '../../../common/api';
import { DEFAULT_LOGIN_REDIRECT } from '../../../common/constants';
import { MSG } from '../../../common/messages';
import { safeRedirect, useSkin, useSkinPath } from '../../app/skin';
import { isApiError } from '../../api/client';
import { hasErrors, schemaErrors, serverFieldErrors } from '../../api/field-errors';
import type { FieldErrors } from '../../api/field-errors';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { Checkbox } from '../../ui/Checkbox';
import { PasswordField } from '../../ui/PasswordField';
import { TextField } from '../../ui/TextField';
import { useToast } from '../../ui/Toast';
import { useLogin, useSession } from './api';
import { AuthCard } from './AuthCard';
import form from './form.module.css';
import { SocialLoginFlow } from './social/SocialLoginFlow';
import { readSocialTicket, socialErrorText } from './social/social-ticket';
import { SocialSignIn } from './SocialSignIn';
import { useCaptcha } from './use-captcha';

/** 401 and 429 carry a message meant for the user; anything else gets the spec's generic text. */
function loginFailure(error: unknown): { fields: FieldErrors; message: string | null } {
  if (isApiError(error, 401) || isApiError(error, 429)) return { fields: {}, message: error.message };
  if (isApiError(error, 400)) {
    const fields = serverFieldErrors(error);
    if (fields.username || fields.password) return { fields, message: null };
    if (error.response === 'captcha' || fields.altcha) return { fields: {}, message: error.message };
  }
  return { fields: {}, message: MSG.loginGenericError };
}

/** /user/login, and the landing of social callbacks (?social=<ticket>&type=<provider> or ?social_error=<code>). */
export function LoginPage() {
  const skinPath = useSkinPath();
  const [params] = useSearchParams();
  const ticket = readSocialTicket(params);
  const [socialFailure, setSocialFailure] = useState(() => socialErrorText(params.get('social_error')));
  const destination = safeRedirect(params.get('redirect')) ?? skinPath(DEFAULT_LOGIN_REDIRECT);
  if (ticket && socialFailure === null) return <SocialLoginFlow ticket={ticket} destination={destination} onFailed={setSocialFailure} />;
  return <LoginForm destination={destination} notice={socialFailure} />;
}

function LoginForm({ destination, notice }: { destination: string; notice: string | null }) {
  const skin = useSkin();
  const skinPath = useSkinPath();
  const session = useSession();
  const login = useLogin();
  const captcha = useCaptcha();
  const toast = useToast();
  const [values, setValues] = useState({ username: '', password: '', rememberMe: true });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState<string | null>(notice);

  if (session.isLoggedIn) return <Navigate to={destination} replace />;

  const set = (field: 'username' | 'password') => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setMessage(null);
    const input = { username: values.username.trim(), password: values.password.trim(), rememberMe: values.rememberMe, service: skin.id };
    const problems = schemaErrors(accounts.login.input, input);
    setErrors(problems);
    if (hasErrors(problems)) return;

    const solved = await captcha.solve();
    if (!solved.ok) {
      setMessage(captcha.failureMessage);
      return;
    }
    login.mutate(
      { ...input, ...solved.fields },
      {
        onSuccess: (out) => toast({ title: `Welcome back, ${out.user.username}!`, tone: 'success' }),
        onError: (error) => {
          const failure = loginFailure(error);
          setErrors(failure.fields);
          setMessage(failure.message);
        },
        onSettled: () => captcha.reset(),
      },
    );
  };

  return (
    <AuthCard title="Log In" subtitle={MSG.tagline}>
      <form className={form.form} onSubmit={(e) => void onSubmit(e)} noValidate aria-label="Log In">
        <Alert>{message}</Alert>
        <TextField
          label="Username or Email"
          name="username"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          value={values.username}
          onChange={(e) => set('username')(e.target.value)}
          error={errors.username}
          autoFocus
        />
        <PasswordField
          label="Password"
          name="password"
          autoComplete="current-password"
          value={values.password}
          onChange={(e) => set('password')(e.target.value)}
          error={errors.password}
        />
        <div className={form.between}>
          <Checkbox checked={values.rememberMe} onChange={(e) => setValues((v) => ({ ...v, rememberMe: e.target.checked }))}>
            Remember me
          </Checkbox>
          <Link to={skinPath('/user/forgot-password')} className={form.link}>
            Forgot password?
          </Link>
        </div>
        {captcha.element}
        <Button type="submit" size="lg" block loading={captcha.verifying || login.isPending} disabled={!captcha.ready}>
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
