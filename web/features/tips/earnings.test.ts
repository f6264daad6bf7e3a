import { describe, expect, it } from 'vitest';
import { DEFAULT_PERMISSIONS } from '../../../common/permissions';
import { earningRows, mayLoadEarnings, type EarningDetails } from './earnings';

const details: EarningDetails = {
  response: 'success',
  accountCreated: '2025-01-02T03:04:05.000Z',
  lastStreamDate: '2026-03-04T00:00:00.000Z',
  maxTipReceivedDate: null,
  maxTipSentDate: '2026-02-01T12:00:00.000Z',
  totalEarnings: 1200,
  totalMonthlyEarnings: 1,
};

describe('mayLoadEarnings', () => {
  it('lets admins and holders of GRANT PERMISSION load earnings, and no one else', () => {
    expect(mayLoadEarnings({ role: 'admin', perms: [] })).toBe(true);
    expect(mayLoadEarnings({ role: 'user', perms: [...DEFAULT_PERMISSIONS, 'GRANT PERMISSION'] })).toBe(true);
    expect(mayLoadEarnings({ role: 'user', perms: [...DEFAULT_PERMISSIONS, 'UPDATE STREAM_ANY'] })).toBe(false);
    expect(mayLoadEarnings(null)).toBe(false);
  });
});

describe('earningRows', () => {
  it('lists the dates and the coin totals in the spec’s order', () => {
    expect(earningRows(details, (iso) => iso.slice(0, 10))).toEqual([
      { label: 'Account created', value: '2025-01-02' },
      { label: 'Last stream', value: '2026-03-04' },
      { label: 'Biggest tip received', value: 'Never' },
      { label: 'Biggest tip sent', value: '2026-02-01' },
      { label: 'Total earnings', value: '1,200 Coins' },
      { label: 'Earnings this month', value: '1 Coin' },
    ]);
  });

  it('writes dates in the reader’s locale by default', () => {
    const rows = earningRows(details);
    expect(rows[0]?.value).toBe(new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(new Date(details.accountCreated)));
  });
});
