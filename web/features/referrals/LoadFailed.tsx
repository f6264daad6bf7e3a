import { MSG } from '../../../common/messages';
import { isApiError } from '../../api/client';
import { Alert } from '../../ui/Alert';

/** A referral call that failed: the server's words (or the client's, when no answer came). */
export function LoadFailed({ error }: { error: unknown }) {
  return <Alert>{isApiError(error) && error.message ? error.message : MSG.internal}</Alert>;
}
