import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { SOCIAL_CODES, socialCreateFailure } from '../../../../common/api/social-login';
import { MSG } from '../../../../common/messages';
import { useSkin } from '../../../app/skin';
import { isApiError } from '../../../api/client';
import { failureMessage } from '../../../api/field-errors';
import { useToast } from '../../../ui/Toast';
import { useSocialLogin } from '../api';
import { AuthCard } from '../AuthCard';
import { PageSpinner } from '../gates';
import { InterestsStep } from '../InterestsStep';
import type { LoginLanding } from '../login-landing';
import { MoreInfoForm } from './MoreInfoForm';
import type { SocialTicket } from './social-ticket';

type Stage = { kind: 'checking' } | { kind: 'more-info'; email: string; suggestedUsername: string } | { kind: 'interests'; userId: number };

interface SocialLoginFlowProps {
  ticket: SocialTicket;
  landing: LoginLanding;
  /** The ticket did not sign anyone in: the login form shows this text. */
  onFailed: (message: string) => void;
}

/**
 * The login page after a social callback: the ticket signs in a linked account, or (409) opens
 * "More Info Needed" and then the optional interests picker.
 */
export function SocialLoginFlow({ ticket, landing: { fallback, afterLogin }, onFailed }: SocialLoginFlowProps) {
  const skin = useSkin();
  const navigate = useNavigate();
  const toast = useToast();
  const login = useSocialLogin();
  const [stage, setStage] = useState<Stage>({ kind: 'checking' });
  const started = useRef(false);

  useEffect(() => {
    // A ticket is redeemed once; strict mode runs effects twice in development.
    if (started.current) return;
    started.current = true;
    login
      .mutateAsync({ type: ticket.type, token: ticket.token, service: skin.id })
      .then(async (out) => {
        toast({ title: `Welcome back, ${out.user.username}!`, tone: 'success' });
        void navigate(await afterLogin(out.user.user_id), { replace: true });
      })
      .catch((error: unknown) => {
        const create = isApiError(error) && error.code === SOCIAL_CODES.create ? socialCreateFailure.safeParse(error.body) : null;
        if (create?.success) setStage({ kind: 'more-info', email: create.data.email, suggestedUsername: create.data.suggested_username });
        else if (isApiError(error) && error.code === SOCIAL_CODES.emailExists) onFailed(MSG.socialEmailExists);
        else onFailed(failureMessage(error));
      });
  }, [login, ticket, skin.id, toast, navigate, afterLogin, onFailed]);

  if (stage.kind === 'checking') return <PageSpinner />;
  if (stage.kind === 'interests') {
    return (
      <AuthCard title={MSG.chooseInterests} subtitle="Optional: pick what you love and we'll fill your feed with it." wide>
        <InterestsStep userId={stage.userId} destination={fallback} optional />
      </AuthCard>
    );
  }
  return (
    <AuthCard title={MSG.moreInfoNeeded} subtitle="Finish creating your account." wide>
      <MoreInfoForm
        ticket={ticket}
        email={stage.email}
        suggestedUsername={stage.suggestedUsername}
        onRegistered={(userId) => setStage({ kind: 'interests', userId })}
      />
    </AuthCard>
  );
}
