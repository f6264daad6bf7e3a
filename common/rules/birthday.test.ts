import { describe, expect, it } from 'vitest';
import { ageOn, birthdayProblem, birthdayToIso, parseBirthday } from './birthday';
import { MSG } from '../messages';

const today = new Date(Date.UTC(2026, 10, 21, 12));

describe('parseBirthday', () => {
  it('reads DD-MM-YYYY', () => {
    expect(parseBirthday('07-03-1990')).toEqual({ year: 1990, month: 3, day: 7 });
  });
  it.each(['1990-03-07', '7-3-1990', '31-02-2000', '00-01-2000', '15-13-2000', 'abc', '01-01-1850'])(
    'refuses %s',
    (text) => expect(parseBirthday(text)).toBeNull(),
  );
  it('accepts a leap day in a leap year only', () => {
    expect(parseBirthday('29-02-2024')).not.toBeNull();
    expect(parseBirthday('29-02-2023')).toBeNull();
  });
});

describe('ageOn', () => {
  it('counts a birthday that is today as a full year', () => {
    expect(ageOn({ year: 2012, month: 11, day: 21 }, { year: 2026, month: 11, day: 21 })).toBe(14);
  });
  it('is one less the day before', () => {
    expect(ageOn({ year: 2012, month: 11, day: 22 }, { year: 2026, month: 11, day: 21 })).toBe(13);
  });
});

describe('birthdayProblem', () => {
  it('requires a birthday', () => expect(birthdayProblem('', today)).toBe(MSG.birthdayRequired));
  it('refuses the future', () => expect(birthdayProblem('22-11-2026', today)).toBe(MSG.birthdayInFuture));
  it('refuses under 14', () => expect(birthdayProblem('22-11-2012', today)).toBe(MSG.tooYoung));
  it('accepts exactly 14 today', () => expect(birthdayProblem('21-11-2012', today)).toBeNull());
  it('refuses a malformed date', () => expect(birthdayProblem('2000-01-01', today)).toBe(MSG.birthdayInvalid));
});

it('birthdayToIso converts for storage', () => {
  expect(birthdayToIso('07-03-1990')).toBe('1990-03-07');
});
