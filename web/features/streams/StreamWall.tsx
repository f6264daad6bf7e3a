import { useLocation } from 'react-router';
import { fill, MSG } from '../../../common/messages';
import { isApiError } from '../../api/client';
import { failureMessage } from '../../api/field-errors';
import { useSkinPath } from '../../app/skin';
import { Button, ButtonLink } from '../../ui/Button';
import { BanIcon, LockIcon, RefreshIcon, VideoCallIcon } from '../../ui/icons';
import { Notice } from '../../ui/Notice';
import { useSession } from '../accounts';

/** Why the stream page shows no player (spec part 1 §2 Stream view walls). */
export type WallKind = 'error' | 'block' | 'not-available' | 'disconnected' | 'refused';

export function wallOf(error: unknown): WallKind {
  if (isApiError(error, 'block')) return 'block';
  if (isApiError(error, 'not_found')) return 'not-available';
  if (isApiError(error, 'forbidden')) return 'refused';
  return 'error';
}

/** `during`: which call failed, for the spec's words of an unexpected failure ('Fail to join stream, …', 'Fail to lookup stream, …'). */
export function StreamWall({ kind, error, during }: { kind: WallKind; error?: unknown; during?: 'join' | 'lookup' }) {
  const skinPath = useSkinPath();
  const location = useLocation();
  const session = useSession();
  const home = <ButtonLink to={skinPath('/channel/group')}>Browse streams</ButtonLink>;
  const reload = (
    <Button icon={<RefreshIcon size={18} />} onClick={() => window.location.reload()}>
      Try again
    </Button>
  );
  switch (kind) {
    case 'not-available':
      return <Notice title={MSG.streamNotAvailable} art={<VideoCallIcon size={56} />} actions={home} />;
    case 'block':
      return <Notice title={MSG.streamBlocked} art={<BanIcon size={56} />} actions={home} />;
    case 'disconnected':
      return <Notice title={MSG.streamDisconnected} art={<VideoCallIcon size={56} />} actions={<>{reload}{home}</>} />;
    case 'refused': {
      const login = `${skinPath('/user/login')}?redirect=${encodeURIComponent(location.pathname + location.search)}`;
      return (
        <Notice
          title={failureMessage(error)}
          art={<LockIcon size={56} />}
          actions={session.isLoggedIn ? home : <ButtonLink to={login}>Log In</ButtonLink>}
        />
      );
    }
    default:
      return (
        <Notice
          title={during ? fill(during === 'join' ? MSG.streamJoinFailed : MSG.streamLookupFailed, { message: failureMessage(error) }) : MSG.internal}
          art={<BanIcon size={56} />}
          actions={reload}
        />
      );
  }
}
