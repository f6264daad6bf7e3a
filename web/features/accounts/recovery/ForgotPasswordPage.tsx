import { useState } from 'react';
import { Link } from 'react-router';
import { MSG } from '../../../../common/messages';
import { useSkinPath } from '../../../app/skin';
import { ButtonLink } from '../../../ui/Button';
import { AuthCard } from '../AuthCard';
import form from '../../../ui/form.module.css';
import { CodeStep } from './CodeStep';
import { NewPasswordStep } from './NewPasswordStep';
import styles from './recovery.module.css';
import { SendCodeStep } from './SendCodeStep';
import { UsernameStep } from './UsernameStep';

type State =
  | { step: 1; username: string }
  | { step: 2; username: string; email: string }
  | { step: 3; username: string; email: string }
  | { step: 4; username: string; recoveryCode: string }
  | { step: 5 };

const TITLES = {
  1: { title: 'Forgot Password', subtitle: "Enter your username or email and we'll help you back in." },
  2: { title: 'Recover Your Account', subtitle: 'We found your account.' },
  3: { title: MSG.recoveryCodeSent, subtitle: 'Check your inbox.' },
  4: { title: MSG.recoveryNewPassword, subtitle: 'Choose a password you have not used here before.' },
  5: { title: MSG.recoverySuccess, subtitle: 'Your password has been changed.' },
} as const;

const STEPS = 5;

/** /user/forgot-password: username → masked address → code → new password → done (spec part 1 §2). */
export function ForgotPasswordPage() {
  const skinPath = useSkinPath();
  const [state, setState] = useState<State>({ step: 1, username: '' });
  const { title, subtitle } = TITLES[state.step];

  return (
    <AuthCard title={title} subtitle={subtitle}>
      <div
        className={styles.progress}
        role="progressbar"
        aria-label="Recovery progress"
        aria-valuemin={1}
        aria-valuemax={STEPS}
        aria-valuenow={state.step}
        aria-valuetext={`Step ${state.step} of ${STEPS}`}
      >
        {Array.from({ length: STEPS }, (_, i) => (
          <span key={i} className={i < state.step ? styles.reached : undefined} />
        ))}
      </div>
      {state.step === 1 && (
        <UsernameStep initial={state.username} onFound={(username, email) => setState({ step: 2, username, email })} />
      )}
      {state.step === 2 && (
        <SendCodeStep
          username={state.username}
          email={state.email}
          onSent={(email) => setState({ step: 3, username: state.username, email })}
          onBack={() => setState({ step: 1, username: state.username })}
        />
      )}
      {state.step === 3 && (
        <CodeStep
          username={state.username}
          email={state.email}
          onVerified={(recoveryCode) => setState({ step: 4, username: state.username, recoveryCode })}
        />
      )}
      {state.step === 4 && (
        <NewPasswordStep username={state.username} recoveryCode={state.recoveryCode} onReset={() => setState({ step: 5 })} />
      )}
      {state.step === 5 && (
        <div className={form.form}>
          <div className={styles.success} aria-hidden="true">
            ✓
          </div>
          <p className={styles.lead}>You can now log in with your new password.</p>
          <ButtonLink to={skinPath('/user/login')} size="lg" block>
            Done
          </ButtonLink>
        </div>
      )}
      {state.step < 5 && (
        <p className={form.switch}>
          Remembered it?{' '}
          <Link to={skinPath('/user/login')} className={form.link}>
            Log In
          </Link>
        </p>
      )}
    </AuthCard>
  );
}
