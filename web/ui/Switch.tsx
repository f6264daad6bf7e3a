import { Switch as RadixSwitch } from 'radix-ui';
import { useId } from 'react';
import type { ReactNode } from 'react';
import styles from './Switch.module.css';

interface SwitchProps {
  label: ReactNode;
  /** A line under the label saying what the switch does. */
  description?: ReactNode;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  disabled?: boolean;
}

/** An on/off setting: label (and description) on the left, the switch on the right. */
export function Switch({ label, description, checked, onCheckedChange, disabled = false }: SwitchProps) {
  const id = useId();
  return (
    <div className={styles.row}>
      <div className={styles.text}>
        <label id={`${id}-label`} htmlFor={id} className={styles.label}>
          {label}
        </label>
        {description && (
          <p id={`${id}-description`} className={styles.description}>
            {description}
          </p>
        )}
      </div>
      <RadixSwitch.Root
        id={id}
        className={styles.switch}
        checked={checked}
        onCheckedChange={onCheckedChange}
        disabled={disabled}
        aria-labelledby={`${id}-label`}
        aria-describedby={description ? `${id}-description` : undefined}
      >
        <RadixSwitch.Thumb className={styles.thumb} />
      </RadixSwitch.Root>
    </div>
  );
}
