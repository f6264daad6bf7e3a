import { describe, expect, it } from 'vitest';
import { MSG } from '../../common/messages';
import { shouldRetryUpload, uploadFailureMessage, uploadIdFromUrl } from './upload-rules';

describe('the upload id', () => {
  it('is the last part of the upload address', () => {
    expect(uploadIdFromUrl('http://127.0.0.1:3000/uploads/q0Zt3x8yHk2mVb7wLr1sPa9c')).toBe('q0Zt3x8yHk2mVb7wLr1sPa9c');
    expect(uploadIdFromUrl('/uploads/abc-DEF_1/')).toBe('abc-DEF_1');
    expect(uploadIdFromUrl('/uploads/abc?x=1')).toBe('abc');
    expect(uploadIdFromUrl(null)).toBeNull();
    expect(uploadIdFromUrl('/uploads/a.b')).toBeNull();
  });
});

describe('retrying an upload request', () => {
  const csrf = JSON.stringify({ response: 'csrf', message: MSG.csrf });
  it('tries again after a cut or a server error, and once after a CSRF refusal', () => {
    expect(shouldRetryUpload(0, '', 3)).toBe(true);
    expect(shouldRetryUpload(502, '', 0)).toBe(true);
    expect(shouldRetryUpload(423, '', 0)).toBe(true);
    expect(shouldRetryUpload(403, csrf, 0)).toBe(true);
    expect(shouldRetryUpload(403, csrf, 1)).toBe(false);
  });
  it('gives up on refusals that would only be refused again', () => {
    expect(shouldRetryUpload(413, 'This Video is too big.', 0)).toBe(false);
    expect(shouldRetryUpload(404, '', 0)).toBe(false);
    expect(shouldRetryUpload(401, '{"message":"Please login before uploading"}', 0)).toBe(false);
  });
});

describe('what a refused upload says', () => {
  it("shows the server's words", () => {
    expect(uploadFailureMessage(413, 'This Video is too big. Maximum upload size is 1 GB', MSG.postCreateFailed)).toBe('This Video is too big. Maximum upload size is 1 GB');
    expect(uploadFailureMessage(401, '{"message":"Please login before uploading"}', MSG.postCreateFailed)).toBe('Please login before uploading');
    expect(uploadFailureMessage(403, JSON.stringify({ response: 'forbidden', message: MSG.forbidden }), MSG.postCreateFailed)).toBe(MSG.forbidden);
  });
  it("falls back to the form's own failure, or the connection's", () => {
    expect(uploadFailureMessage(500, 'boom', MSG.postCreateFailed)).toBe(MSG.postCreateFailed);
    expect(uploadFailureMessage(400, '<html>…</html>', MSG.internal)).toBe(MSG.internal);
    expect(uploadFailureMessage(0, '', MSG.postCreateFailed)).toBe(MSG.loginGenericError);
  });
});
