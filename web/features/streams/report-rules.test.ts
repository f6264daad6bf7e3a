import { describe, expect, it } from 'vitest';
import { MSG } from '../../../common/messages';
import { checkComplaint, moderationActionsFor } from './report-rules';

describe('checkComplaint', () => {
  it('needs a type', () => {
    expect(checkComplaint('', 'x')).toEqual({ ok: false, error: MSG.complaintTypeRequired });
    expect(checkComplaint('spam', '')).toEqual({ ok: false, error: MSG.complaintTypeRequired });
  });
  it('trims the comment and leaves out an empty one', () => {
    expect(checkComplaint('troll', '  rude  ')).toEqual({ ok: true, input: { type: 'troll', user_comment: 'rude' } });
    expect(checkComplaint('crime', '   ')).toEqual({ ok: true, input: { type: 'crime' } });
  });
});

describe('moderationActionsFor', () => {
  it('gives a plain viewer nothing', () => {
    expect(moderationActionsFor(null)).toEqual([]);
    expect(moderationActionsFor({ role: 'user', perms: ['CREATE STREAM_CHAT'] })).toEqual([]);
  });
  it('follows the permission table', () => {
    expect(moderationActionsFor({ role: 'user', perms: ['GRANT PERMISSION'] })).toEqual(['END_STREAM', 'DELETE_STREAM', 'SUSPEND_USER']);
    const editor = moderationActionsFor({ role: 'user', perms: ['UPDATE STREAM_ANY'] });
    expect(editor).toContain('MAKE_FEATURED');
    // The spec's table, in its order: Change Thumbnail, Set stream to paid, Move User to Men.
    expect(editor.slice(editor.indexOf('CHANGE_THUMBNAIL'), editor.indexOf('CHANGE_THUMBNAIL') + 3)).toEqual(['CHANGE_THUMBNAIL', 'SET_STREAM_PAID', 'MOVE_USER_TO_MEN']);
    expect(editor).not.toContain('SUSPEND_USER');
  });
  it('gives an admin every action', () => {
    expect(moderationActionsFor({ role: 'admin', perms: [] })).toHaveLength(11);
  });
});
