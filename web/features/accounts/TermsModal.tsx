import { useState } from 'react';
import type { FormEvent } from 'react';
import { useNavigate } from 'react-router';
import type { SessionUser } from '../../../common/api/accounts';
import { MSG } from '../../../common/messages';
import { useSkin, useSkinPath } from '../../app/skin';
import { Button } from '../../ui/Button';
import { FieldError } from '../../ui/Field';
import { Modal } from '../../ui/Modal';
import prose from '../../ui/prose.module.css';
import { Spinner } from '../../ui/Spinner';
import { useToast } from '../../ui/Toast';
import { useLegalHtml } from '../system';
import { useAcceptTerms } from './api';
import styles from './TermsModal.module.css';

type Choice = 'accept' | 'decline';

/** Blocks a signed-in user who has not accepted the current terms: accept, or decline and be signed out. */
export function TermsModal({ user }: { user: SessionUser }) {
  const skin = useSkin();
  const skinPath = useSkinPath();
  const navigate = useNavigate();
  const toast = useToast();
  const terms = useLegalHtml('terms', skin);
  const accept = useAcceptTerms();
  const [choice, setChoice] = useState<Choice | null>(null);
  const [error, setError] = useState<string | null>(null);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!choice) {
      setError(MSG.termsChoiceRequired);
      return;
    }
    if (choice === 'decline') {
      void navigate(skinPath('/user/logout'));
      return;
    }
    accept.mutate(user.user_id, {
      onSuccess: () => toast({ title: 'Thanks! You accepted the terms.', tone: 'success' }),
      onError: (err) => setError(err.message),
    });
  };

  return (
    <Modal open blocking size="lg" title={`${skin.name} Terms of Service`} description="Please read and accept our terms to keep using your account.">
      <form onSubmit={onSubmit} noValidate className={styles.form}>
        <div className={`${styles.terms} ${prose.prose}`} tabIndex={0} aria-label="Terms of Service text">
          {terms.isPending && <Spinner label="Loading the terms" />}
          {terms.isError && <p>The terms could not be loaded. Please reload the page.</p>}
          {terms.data && <div dangerouslySetInnerHTML={{ __html: terms.data }} />}
        </div>
        <fieldset className={styles.choices}>
          <legend className="visually-hidden">Do you accept the terms?</legend>
          {(['accept', 'decline'] as const).map((value) => (
            <label key={value} className={styles.choice}>
              <input
                type="radio"
                name="terms-choice"
                value={value}
                checked={choice === value}
                onChange={() => {
                  setChoice(value);
                  setError(null);
                }}
              />
              <span>{value === 'accept' ? 'I accept' : 'I decline'}</span>
            </label>
          ))}
        </fieldset>
        <FieldError message={error ?? undefined} />
        <div className={styles.actions}>
          <Button type="submit" loading={accept.isPending}>
            Submit
          </Button>
        </div>
      </form>
    </Modal>
  );
}
