/** The pure part of the code boxes: where typed or pasted digits land and which box gets the focus. */

export interface CodeEdit {
  digits: string[];
  /** The box to focus after the edit. */
  focus: number;
}

export function emptyCode(length: number): string[] {
  return Array.from({ length }, () => '');
}

/**
 * Puts the digits of `text` into the boxes starting at `index` (a whole code pasted or autofilled
 * anywhere starts at the first box); the focus goes to the box after the last one filled.
 */
export function enterDigits(digits: readonly string[], index: number, text: string): CodeEdit {
  const typed = text.replace(/\D/g, '');
  const next = [...digits];
  if (!typed) {
    next[index] = '';
    return { digits: next, focus: index };
  }
  const start = typed.length >= digits.length ? 0 : index;
  const chars = typed.slice(0, digits.length - start).split('');
  chars.forEach((char, i) => (next[start + i] = char));
  return { digits: next, focus: Math.min(start + chars.length, digits.length - 1) };
}

/** The one digit a box should keep when a second one is typed into it ("3" then "7" typed → "37" → "7"). */
export function typedDigit(previous: string, value: string): string {
  const digits = value.replace(/\D/g, '');
  if (digits.length === 2 && previous) return digits[0] === previous ? digits[1]! : digits[0]!;
  return digits;
}

/** Backspace in an empty box moves back one box; otherwise it just clears its own. */
export function backspaceFocus(digits: readonly string[], index: number): number {
  return digits[index] ? index : Math.max(0, index - 1);
}
