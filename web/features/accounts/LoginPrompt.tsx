import { useLocation } from 'react-router';
import { useSkin, useSkinPath } from '../../app/skin';
import { ButtonLink } from '../../ui/Button';
import { Modal } from '../../ui/Modal';

/** "Need Full Access?": what a guest sees when they try to act on a page that stays public — Sign Up, Sign In or Download App. */
export function LoginPrompt({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const skinPath = useSkinPath();
  const skin = useSkin();
  const location = useLocation();
  const redirect = encodeURIComponent(location.pathname + location.search);
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      size="sm"
      title="Need Full Access?"
      description="Sign in or create a free account to chat, like, follow creators and get notified when they go live."
      footer={
        <>
          {/* The spec's third way in: the app (the skin's download page lists its stores). */}
          <ButtonLink to={skin.links.download} variant="ghost">
            Download App
          </ButtonLink>
          <ButtonLink to={`${skinPath('/user/sign-up')}`} variant="secondary">
            Sign Up
          </ButtonLink>
          <ButtonLink to={`${skinPath('/user/login')}?redirect=${redirect}`}>Sign In</ButtonLink>
        </>
      }
    />
  );
}
