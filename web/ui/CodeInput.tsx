import { useRef } from 'react';
import type { ClipboardEvent, KeyboardEvent } from 'react';
import { backspaceFocus, enterDigits, typedDigit } from './code-input';
import styles from './CodeInput.module.css';

interface CodeInputProps {
  /** One string per box: a digit or ''. */
  value: string[];
  onChange: (value: string[]) => void;
  label: string;
  invalid?: boolean;
  describedBy?: string | undefined;
  autoFocus?: boolean;
}

/** Single-digit boxes: typing advances, Backspace on an empty box goes back, a pasted code fills them all. */
export function CodeInput({ value, onChange, label, invalid = false, describedBy, autoFocus = false }: CodeInputProps) {
  const boxes = useRef<Array<HTMLInputElement | null>>([]);
  const focusBox = (index: number) => {
    const box = boxes.current[index];
    box?.focus();
    box?.select();
  };

  const enter = (index: number, text: string) => {
    const edit = enterDigits(value, index, text);
    onChange(edit.digits);
    if (text.replace(/\D/g, '')) focusBox(edit.focus);
  };

  const onKeyDown = (index: number) => (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Backspace' && !value[index]) {
      event.preventDefault();
      focusBox(backspaceFocus(value, index));
    } else if (event.key === 'ArrowLeft' && index > 0) {
      event.preventDefault();
      focusBox(index - 1);
    } else if (event.key === 'ArrowRight' && index < value.length - 1) {
      event.preventDefault();
      focusBox(index + 1);
    }
  };

  const onPaste = (index: number) => (event: ClipboardEvent<HTMLInputElement>) => {
    event.preventDefault();
    enter(index, event.clipboardData.getData('text'));
  };

  return (
    <div className={styles.boxes} role="group" aria-label={label} aria-describedby={describedBy}>
      {value.map((digit, index) => (
        <input
          // The boxes are a fixed row: the index is their identity.
          key={index}
          ref={(el) => {
            boxes.current[index] = el;
          }}
          className={styles.box}
          value={digit}
          inputMode="numeric"
          autoComplete={index === 0 ? 'one-time-code' : 'off'}
          aria-label={`Digit ${index + 1} of ${value.length}`}
          aria-invalid={invalid || undefined}
          data-filled={digit ? '' : undefined}
          autoFocus={autoFocus && index === 0}
          onFocus={(e) => e.target.select()}
          onChange={(e) => {
            const text = e.target.value;
            enter(index, text.replace(/\D/g, '').length > 2 ? text : typedDigit(digit, text));
          }}
          onKeyDown={onKeyDown(index)}
          onPaste={onPaste(index)}
        />
      ))}
    </div>
  );
}
