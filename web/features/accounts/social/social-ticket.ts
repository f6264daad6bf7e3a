/** Reading the login page's query after a social callback (?social=<ticket>&type=<provider> or ?social_error=<code>). */
import { SOCIAL_ERRORS, SOCIAL_PROVIDERS } from '../../../../common/api/social-login';
import { errorMessage } from '../../../../common/errors';
import type { SocialProvider } from '../../../../common/api/social-login';
import { MSG } from '../../../../common/messages';

export interface SocialTicket {
  type: SocialProvider;
  token: string;
}

export function readSocialTicket(params: URLSearchParams): SocialTicket | null {
  const token = params.get('social');
  const type = params.get('type') ?? 'google';
  if (!token || !(SOCIAL_PROVIDERS as readonly string[]).includes(type)) return null;
  return { type: type as SocialProvider, token };
}

/** The text for a `social_error` code; unknown codes get the generic social failure text. */
export function socialErrorText(code: string | null): string | null {
  if (!code) return null;
  const known = Object.values(SOCIAL_ERRORS).find((c) => c === code);
  return known ? errorMessage(known) : MSG.socialFailed;
}
