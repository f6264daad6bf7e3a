import { describe, expect, it } from 'vitest';
import { DAILY_CSV_HEADER, dailyCsv, dailyCsvFileName, dailyRows } from './daily';

describe('daily figures', () => {
  const range = { from: '2026-10-30', to: '2026-11-02' };

  it('joins the three series by day, one row a day of the range', () => {
    const rows = dailyRows({
      TOTAL_TIP_BY_DATE: [
        { date: '2026-10-30', totalTip: 10 }, { date: '2026-10-31', totalTip: 0 }, { date: '2026-11-01', totalTip: 25 }, { date: '2026-11-02', totalTip: 0 },
      ],
      TOTAL_STREAM_VIEWS_BY_DATE: [
        { date: '2026-10-30', totalStreamViews: 1200 }, { date: '2026-10-31', totalStreamViews: 3 }, { date: '2026-11-01', totalStreamViews: 0 }, { date: '2026-11-02', totalStreamViews: 7 },
      ],
      TOTAL_FOLLOWERS_BY_DATE: [
        { date: '2026-10-30', totalFollowers: 1 }, { date: '2026-10-31', totalFollowers: 0 }, { date: '2026-11-01', totalFollowers: 2 }, { date: '2026-11-02', totalFollowers: 0 },
      ],
    }, range);
    expect(rows).toEqual([
      { date: '2026-10-30', totalTip: 10, totalStreamViews: 1200, totalFollowers: 1 },
      { date: '2026-10-31', totalTip: 0, totalStreamViews: 3, totalFollowers: 0 },
      { date: '2026-11-01', totalTip: 25, totalStreamViews: 0, totalFollowers: 2 },
      { date: '2026-11-02', totalTip: 0, totalStreamViews: 7, totalFollowers: 0 },
    ]);
  });

  it('counts zero where a series lacks a day, and the range up to today when nothing loaded', () => {
    const today = '2026-11-01';
    expect(dailyRows(undefined, range, today).map((r) => [r.date, r.totalTip + r.totalStreamViews + r.totalFollowers])).toEqual([
      ['2026-10-30', 0], ['2026-10-31', 0], ['2026-11-01', 0],
    ]);
    const rows = dailyRows({ TOTAL_TIP_BY_DATE: [{ date: '2026-10-31', totalTip: 0 }, { date: '2026-11-01', totalTip: 4 }], TOTAL_FOLLOWERS_BY_DATE: [{ date: '2026-10-31', totalFollowers: 1 }] }, range, today);
    expect(rows).toEqual([
      { date: '2026-10-31', totalTip: 0, totalStreamViews: 0, totalFollowers: 1 },
      { date: '2026-11-01', totalTip: 4, totalStreamViews: 0, totalFollowers: 0 },
    ]);
    expect(dailyRows(undefined, { from: '2026-11-05', to: '2026-11-05' }, '2026-11-20')).toHaveLength(1);
  });

  it('exports exactly the rows: the header, then one line a day', () => {
    const tips = ['2026-10-30', '2026-10-31', '2026-11-01', '2026-11-02'].map((date) => ({ date, totalTip: date === '2026-10-31' ? 15 : 0 }));
    const rows = dailyRows({ TOTAL_TIP_BY_DATE: tips, TOTAL_STREAM_VIEWS_BY_DATE: [{ date: '2026-11-02', totalStreamViews: 1234 }] }, range);
    expect(dailyCsv(rows)).toBe([
      DAILY_CSV_HEADER,
      '2026-10-30,0,0,0',
      '2026-10-31,15,0,0',
      '2026-11-01,0,0,0',
      '2026-11-02,0,1234,0',
      '',
    ].join('\n'));
    expect(DAILY_CSV_HEADER).toBe('date,totalTip,totalStreamViews,totalFollowers');
    expect(dailyCsv([])).toBe(`${DAILY_CSV_HEADER}\n`);
    expect(dailyCsvFileName(range)).toBe('analytics-2026-10-30-2026-11-02.csv');
  });
});
