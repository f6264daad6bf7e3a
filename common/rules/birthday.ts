/** Birthday rules of sign-up: DD-MM-YYYY, a real calendar date, not in the future, age at least 14. */
import { MIN_AGE } from '../constants';
import { MSG } from '../messages';

export interface CalendarDate {
  year: number;
  month: number; // 1..12
  day: number;
}

const BIRTHDAY_SHAPE = /^(\d{2})-(\d{2})-(\d{4})$/;

/** Parses "DD-MM-YYYY" into a calendar date, or null when it is not one (31-02-2000 is not). */
export function parseBirthday(text: string): CalendarDate | null {
  const match = BIRTHDAY_SHAPE.exec(text.trim());
  if (!match) return null;
  const [day, month, year] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const probe = new Date(Date.UTC(year, month - 1, day));
  const isReal = probe.getUTCFullYear() === year && probe.getUTCMonth() === month - 1 && probe.getUTCDate() === day;
  return isReal && year >= 1900 ? { year, month, day } : null;
}

/** Whole years between a birthday and `today` (both calendar dates, no time zone games). */
export function ageOn(birthday: CalendarDate, today: CalendarDate): number {
  const hadBirthdayThisYear =
    today.month > birthday.month || (today.month === birthday.month && today.day >= birthday.day);
  return today.year - birthday.year - (hadBirthdayThisYear ? 0 : 1);
}

export function calendarDateOf(date: Date): CalendarDate {
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

function compare(a: CalendarDate, b: CalendarDate): number {
  return a.year - b.year || a.month - b.month || a.day - b.day;
}

/** The sign-up message for a birthday, or null when it passes. */
export function birthdayProblem(text: string | undefined, now: Date = new Date(), minAge = MIN_AGE): string | null {
  if (!text || text.trim() === '') return MSG.birthdayRequired;
  const birthday = parseBirthday(text);
  if (!birthday) return MSG.birthdayInvalid;
  const today = calendarDateOf(now);
  if (compare(birthday, today) > 0) return MSG.birthdayInFuture;
  if (ageOn(birthday, today) < minAge) return MSG.tooYoung;
  return null;
}

/** "DD-MM-YYYY" → "YYYY-MM-DD" for storage; assumes the text was validated. */
export function birthdayToIso(text: string): string {
  const d = parseBirthday(text);
  if (!d) throw new Error(`not a birthday: ${text}`);
  return `${d.year}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`;
}
