import { describe, expect, it } from 'vitest';
import { MODERATION_RIGHTS, mayModerate } from './moderation';

const holder = (...perms: string[]) => ({ role: 'user', perms });

describe('who may moderate what', () => {
  it('gives administrators every right and nobody without a permission any', () => {
    for (const right of MODERATION_RIGHTS) {
      expect(mayModerate({ role: 'admin', perms: [] }, right)).toBe(true);
      expect(mayModerate(holder('CREATE PLAN'), right)).toBe(false);
      expect(mayModerate(null, right)).toBe(false);
    }
  });

  it('reserves deletions and suspension to GRANT PERMISSION, hiding to ALLOW REPORT_STREAM_HIDE, edits to UPDATE STREAM_ANY', () => {
    const rights = (...perms: string[]) => MODERATION_RIGHTS.filter((right) => mayModerate(holder(...perms), right));
    expect(rights('GRANT PERMISSION')).toEqual(['stream.end', 'stream.delete', 'viewer.ban', 'post.delete', 'comment.delete', 'direct-message.delete', 'user.suspend', 'report.dismiss']);
    expect(rights('ALLOW REPORT_STREAM_HIDE')).toEqual(['stream.hide', 'report.dismiss']);
    expect(rights('UPDATE STREAM_ANY')).toEqual(['stream.edit', 'viewer.ban']);
  });
});
