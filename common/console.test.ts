import { describe, expect, it } from 'vitest';
import { consoleAreas, mayTakeAction, mayUseConsole } from './console';

const as = (perms: string[], role = 'user') => ({ role, perms });

describe('the console access rule', () => {
  it('gives administrators every part and action', () => {
    expect(consoleAreas(as([], 'admin'))).toEqual(['reports', 'users', 'payments', 'payouts', 'featured', 'channels', 'messages', 'chat', 'outbox', 'audit', 'jobs']);
    expect(mayTakeAction(as([], 'admin'), 'END_STREAM')).toBe(true);
  });

  it('gives each moderator permission its part and actions only', () => {
    expect(consoleAreas(as(['GRANT PERMISSION']))).toEqual(['reports']);
    expect(consoleAreas(as(['ALLOW REPORT_STREAM_HIDE']))).toEqual(['reports']);
    expect(consoleAreas(as(['UPDATE STREAM_ANY']))).toEqual(['featured']);
    expect(['END_STREAM', 'DELETE', 'SUSPEND_USER', 'DISMISS'].every((a) => mayTakeAction(as(['GRANT PERMISSION']), a as never))).toBe(true);
    expect(mayTakeAction(as(['GRANT PERMISSION']), 'HIDE')).toBe(false);
    expect(mayTakeAction(as(['ALLOW REPORT_STREAM_HIDE']), 'HIDE')).toBe(true);
    expect(mayTakeAction(as(['ALLOW REPORT_STREAM_HIDE']), 'DELETE')).toBe(false);
    // Delete on a post or comment is that item's right: GRANT PERMISSION's, as on the public routes.
    for (const kind of ['post', 'comment'] as const) {
      expect(mayTakeAction(as(['GRANT PERMISSION']), 'DELETE', kind)).toBe(true);
      expect(mayTakeAction(as(['ALLOW REPORT_STREAM_HIDE']), 'DELETE', kind)).toBe(false);
      expect(mayTakeAction(as(['UPDATE STREAM_ANY']), 'DELETE', kind)).toBe(false);
    }
    expect(mayTakeAction(as(['UPDATE STREAM_ANY']), 'DISMISS')).toBe(false);
  });

  it('has no console for anyone else', () => {
    expect(mayUseConsole(null)).toBe(false);
    expect(mayUseConsole(as(['CREATE PLAN', 'ALLOW REFERRAL_ACCESS']))).toBe(false);
  });
});
