import { describe, expect, it } from 'vitest';
import { MSG } from '../../../../common/messages';
import { readSocialTicket, socialErrorText } from './social-ticket';

describe('social callback query', () => {
  it('reads the ticket and provider', () => {
    expect(readSocialTicket(new URLSearchParams('social=abc&type=apple'))).toEqual({ type: 'apple', token: 'abc' });
  });

  it('ignores an unknown provider or a missing ticket', () => {
    expect(readSocialTicket(new URLSearchParams('social=abc&type=myspace'))).toBeNull();
    expect(readSocialTicket(new URLSearchParams('type=google'))).toBeNull();
  });

  it('says the email exists, or the generic failure for codes it does not know', () => {
    expect(socialErrorText('ARGS_INVALID_EMAIL_EXIST_DB')).toBe(MSG.socialEmailExists);
    expect(socialErrorText('SOMETHING_NEW')).toBe(MSG.socialFailed);
    expect(socialErrorText(null)).toBeNull();
  });
});
