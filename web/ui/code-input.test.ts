import { describe, expect, it } from 'vitest';
import { backspaceFocus, emptyCode, enterDigits, typedDigit } from './code-input';

describe('code boxes', () => {
  it('types one digit and moves to the next box', () => {
    expect(enterDigits(emptyCode(6), 0, '4')).toEqual({ digits: ['4', '', '', '', '', ''], focus: 1 });
  });

  it('keeps the focus on the last box when it is filled', () => {
    expect(enterDigits(['1', '2', '3', '4', '5', ''], 5, '6')).toEqual({ digits: ['1', '2', '3', '4', '5', '6'], focus: 5 });
  });

  it('fills every box from the first when a whole code is pasted into any box', () => {
    expect(enterDigits(emptyCode(6), 3, '12 34-56')).toEqual({ digits: ['1', '2', '3', '4', '5', '6'], focus: 5 });
  });

  it('spreads a partial paste from the current box', () => {
    expect(enterDigits(emptyCode(6), 2, '98')).toEqual({ digits: ['', '', '9', '8', '', ''], focus: 4 });
  });

  it('ignores letters and clears a box emptied by the user', () => {
    expect(enterDigits(['1', '2', '', '', '', ''], 1, 'x')).toEqual({ digits: ['1', '', '', '', '', ''], focus: 1 });
  });

  it('keeps the newly typed digit when a box already had one', () => {
    expect(typedDigit('3', '37')).toBe('7');
    expect(typedDigit('3', '73')).toBe('7');
    expect(typedDigit('', '5')).toBe('5');
  });

  it('moves back on backspace only from an empty box', () => {
    expect(backspaceFocus(['1', '', '', '', '', ''], 1)).toBe(0);
    expect(backspaceFocus(['1', '2', '', '', '', ''], 1)).toBe(1);
    expect(backspaceFocus(emptyCode(6), 0)).toBe(0);
  });
});
