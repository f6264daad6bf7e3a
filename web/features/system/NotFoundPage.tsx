import { useSkinPath } from '../../app/skin';
import { ButtonLink } from '../../ui/Button';
import { Notice } from '../../ui/Notice';

export function NotFoundPage() {
  const skinPath = useSkinPath();
  return (
    <Notice
      title="Page not found"
      art="404"
      actions={
        <>
          <ButtonLink to={skinPath('/')}>Go to the home page</ButtonLink>
          <ButtonLink to={skinPath('/channel/group')} variant="secondary">
            Browse channels
          </ButtonLink>
        </>
      }
    >
      This page does not exist, or it is not here yet. Let&apos;s get you back to the streams.
    </Notice>
  );
}
