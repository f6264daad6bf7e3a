import { useState } from 'react';
import { MSG } from '../../../common/messages';
import { AuthCard } from './AuthCard';
import { InterestsStep } from './InterestsStep';
import { SignUpForm } from './SignUpForm';

/** Sign-up: the account form, then (now signed in) the interests picker. */
export function SignUpPage() {
  const [userId, setUserId] = useState<number | null>(null);
  if (userId !== null) {
    return (
      <AuthCard title={MSG.chooseInterests} subtitle="Pick what you love and we'll fill your feed with it." wide>
        <InterestsStep userId={userId} />
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Create your account" subtitle="Join in seconds. Watch, chat and go live." wide>
      <SignUpForm onRegistered={setUserId} />
    </AuthCard>
  );
}
