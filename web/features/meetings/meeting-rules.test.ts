import { describe, expect, it } from 'vitest';
import type { MeetingListEntry } from '../../../common/api/meetings';
import { MSG } from '../../../common/messages';
import { calendarEvents, tipFromField, checkMeetingForm, parseLocalDateTime, toggleInvitee, toIsoWithOffset, toLocalDateTime } from './meeting-rules';

const now = new Date(2026, 10, 26, 18, 0);
const valid = { title: 'Q&A night', invitees: [7], scheduled: true, startLocal: '2026-11-27T20:30' };

describe('invitees', () => {
  it('adds and removes, and refuses an eleventh', () => {
    expect(toggleInvitee([1, 2], 3)).toEqual({ selected: [1, 2, 3], error: null });
    expect(toggleInvitee([1, 2], 2)).toEqual({ selected: [1], error: null });
    const ten = Array.from({ length: 10 }, (_, i) => i + 1);
    expect(toggleInvitee(ten, 11)).toEqual({ selected: ten, error: MSG.maxInviteExceeded });
    expect(toggleInvitee(ten, 10).selected).toHaveLength(9);
  });
});

describe('the meeting form checks', () => {
  it('passes a good form', () => {
    expect(checkMeetingForm(valid, { isNew: true, now })).toEqual({});
  });
  it('wants a title of 3+ characters and at least one invitee', () => {
    expect(checkMeetingForm({ ...valid, title: ' ab ', invitees: [] }, { isNew: true, now })).toEqual({ title: MSG.titleRequired, invitees: MSG.chooseRecipient });
    expect(checkMeetingForm({ ...valid, invitees: Array.from({ length: 11 }, (_, i) => i) }, { isNew: true, now }).invitees).toBe(MSG.maxInviteExceeded);
  });
  it('wants a real date, now or later only for a new meeting', () => {
    expect(checkMeetingForm({ ...valid, startLocal: '2026-02-30T10:00' }, { isNew: true, now }).start).toBe(MSG.validDateTime);
    expect(checkMeetingForm({ ...valid, startLocal: '2026-11-26T17:00' }, { isNew: true, now }).start).toBe(MSG.validDateTime);
    expect(checkMeetingForm({ ...valid, startLocal: '2026-11-26T17:00' }, { isNew: false, now })).toEqual({});
    expect(checkMeetingForm({ ...valid, scheduled: false, startLocal: '' }, { isNew: true, now })).toEqual({});
  });
});

describe('date-time values', () => {
  it('round-trips the datetime-local value and adds the offset', () => {
    const date = parseLocalDateTime('2026-11-27T20:30');
    expect(date && toLocalDateTime(date)).toBe('2026-11-27T20:30');
    expect(toIsoWithOffset(date as Date)).toMatch(/^2026-11-27T20:30:00[+-]\d{2}:\d{2}$/);
    expect(new Date(toIsoWithOffset(date as Date)).getTime()).toBe(date?.getTime());
    expect(parseLocalDateTime('tomorrow')).toBeNull();
  });
});

describe('calendar events', () => {
  const entry = (over: Partial<MeetingListEntry>): MeetingListEntry => ({
    meeting_id: 5, stream_id: 5, start_time: '2026-11-27T19:30:00.000Z', end_time: '2026-11-27T20:00:00.000Z', title: 'Chat', pwd: '', state: 'scheduled',
    is_creator: true, creator_user_id: 1, creator_sname: 'host', creator_avatar: null, is_following: false, audience_ids: [2], ...over,
  });
  it('labels meetings Hosting or Invited and keeps their id and times', () => {
    const [hosting, invited] = calendarEvents([entry({}), entry({ meeting_id: 6, is_creator: false, state: 'ended' })]);
    expect(hosting).toMatchObject({ id: '5', title: 'Hosting: Chat', start: '2026-11-27T19:30:00.000Z', end: '2026-11-27T20:00:00.000Z', extendedProps: { meetingId: 5, hosting: true } });
    expect(invited).toMatchObject({ id: '6', title: 'Invited: Chat', classNames: ['meeting-invited', 'meeting-ended'] });
  });
});

describe('the tip field', () => {
  it('rounds up to 10 and clamps to 250–5000 on blur, empty or nonsense being 250', () => {
    expect(tipFromField('255')).toBe(260);
    expect(tipFromField(' 9000 ')).toBe(5000);
    expect(tipFromField('12')).toBe(250);
    expect(tipFromField('')).toBe(250);
    expect(tipFromField('lots')).toBe(250);
  });
});
