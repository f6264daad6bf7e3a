/**
 * The meeting form's and calendar's pure rules (spec part 2 §5, §9): invitees, the form's checks, the
 * follower search, the date-time field, and the calendar's events.
 */
import type { MeetingListEntry } from '../../../common/api/meetings';
import { MEETING } from '../../../common/constants';
import { MSG } from '../../../common/messages';
import { meetingTip } from '../../../common/rules/meeting';

/** The tip field's text as coins: rounded up to 10 and clamped to 250–5000 (empty or not a number: 250). */
export const tipFromField = (text: string): number => meetingTip(text.trim() === '' ? null : Number(text));

/** Adds or removes an invitee; an eleventh one is refused with the spec's message. */
export function toggleInvitee(selected: readonly number[], id: number): { selected: number[]; error: string | null } {
  if (selected.includes(id)) return { selected: selected.filter((other) => other !== id), error: null };
  if (selected.length >= MEETING.maxInvitees) return { selected: [...selected], error: MSG.maxInviteExceeded };
  return { selected: [...selected, id], error: null };
}

export interface MeetingFormValues {
  title: string;
  invitees: readonly number[];
  scheduled: boolean;
  /** The datetime-local field's value (local time, "2026-11-26T18:30"). */
  startLocal: string;
}

export type MeetingFormErrors = Partial<Record<'title' | 'invitees' | 'start', string>>;

/** The form's checks; "now or later" only for a new scheduled meeting (spec part 2 §5). */
export function checkMeetingForm(values: MeetingFormValues, { isNew, now }: { isNew: boolean; now: Date }): MeetingFormErrors {
  const errors: MeetingFormErrors = {};
  if (values.title.trim().length < MEETING.titleMin) errors.title = MSG.titleRequired;
  if (values.invitees.length < 1) errors.invitees = MSG.chooseRecipient;
  else if (values.invitees.length > MEETING.maxInvitees) errors.invitees = MSG.maxInviteExceeded;
  if (values.scheduled) {
    const start = parseLocalDateTime(values.startLocal);
    // A minute of grace: the field has no seconds, so "now" typed a moment ago is still now.
    if (!start || (isNew && start.getTime() < now.getTime() - 60_000)) errors.start = MSG.validDateTime;
  }
  return errors;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A date as a datetime-local value in the browser's time zone. */
export function toLocalDateTime(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A datetime-local value as a Date, or null when it is not a real date and time. */
export function parseLocalDateTime(value: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(value);
  if (!match) return null;
  const [year, month, day, hour, minute] = match.slice(1).map(Number) as [number, number, number, number, number];
  const date = new Date(year, month - 1, day, hour, minute);
  const same = date.getFullYear() === year && date.getMonth() === month - 1 && date.getDate() === day && date.getHours() === hour && date.getMinutes() === minute;
  return same ? date : null;
}

/** An instant as ISO 8601 with the browser's offset ("2026-11-26T18:30:00+01:00"), as the contract wants. */
export function toIsoWithOffset(date: Date): string {
  const offset = -date.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  const abs = Math.abs(offset);
  return `${toLocalDateTime(date)}:${pad(date.getSeconds())}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

export interface CalendarEvent {
  id: string;
  title: string;
  start: string;
  end: string;
  classNames: string[];
  extendedProps: { meetingId: number; hosting: boolean };
}

/** One calendar event per meeting, labelled Hosting or Invited (spec part 2 §2 screen 9). */
export function calendarEvents(meetings: readonly MeetingListEntry[]): CalendarEvent[] {
  return meetings.map((meeting) => {
    const role = meeting.is_creator ? 'Hosting' : 'Invited';
    return {
      id: String(meeting.meeting_id),
      title: `${role}: ${meeting.title}`,
      start: meeting.start_time,
      end: meeting.end_time,
      classNames: [meeting.is_creator ? 'meeting-hosting' : 'meeting-invited', `meeting-${meeting.state}`],
      extendedProps: { meetingId: meeting.meeting_id, hosting: meeting.is_creator },
    };
  });
}

/** The schedule date as the success screen and the dialog show it. */
export function formatMeetingTime(iso: string): string {
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'full', timeStyle: 'short' }).format(new Date(iso));
}
