/** The name and password fields that the account forms (login, sign-up, social sign-up, recovery) share. */
import { MSG } from '../../../common/messages';
import type { FieldErrors } from '../../api/field-errors';
import { PasswordField } from '../../ui/PasswordField';
import { TextField } from '../../ui/TextField';
import type { TextFieldProps } from '../../ui/TextField';
import form from '../../ui/form.module.css';

type NameFieldProps = Omit<TextFieldProps, 'label' | 'value' | 'onChange'> & { value: string; onChange: (value: string) => void };

/** No capitals or spelling marks forced on a name, and the browser offers the saved one. */
const NAME_INPUT = { autoComplete: 'username', autoCapitalize: 'none', spellCheck: false } as const;

/** What a person signs in with, as the login and recovery forms ask for it. */
export function SignInNameField({ onChange, ...rest }: NameFieldProps) {
  return <TextField label="Username or Email" name="username" {...NAME_INPUT} autoFocus onChange={(e) => onChange(e.target.value)} {...rest} />;
}

/** The username of a new account, with the rule it follows. */
export function NewUsernameField({ onChange, ...rest }: NameFieldProps) {
  return <TextField label="Username" {...NAME_INPUT} hint="3 to 30 letters, digits, dots or underscores" onChange={(e) => onChange(e.target.value)} {...rest} />;
}

interface NewPasswordFieldsProps {
  label: string;
  password: string;
  confirm: string;
  onPasswordChange: (value: string) => void;
  onConfirmChange: (value: string) => void;
  passwordError?: string | undefined;
  confirmError?: string | undefined;
  hint?: string;
  autoFocus?: boolean;
  /** Side by side on wider screens (sign-up) rather than one above the other. */
  sideBySide?: boolean;
}

/** A new password and its confirmation. */
export function NewPasswordFields(props: NewPasswordFieldsProps) {
  const fields = (
    <>
      <PasswordField
        label={props.label}
        autoComplete="new-password"
        value={props.password}
        onChange={(e) => props.onPasswordChange(e.target.value)}
        error={props.passwordError}
        hint={props.hint}
        autoFocus={props.autoFocus}
      />
      <PasswordField
        label="Confirm Password"
        autoComplete="new-password"
        value={props.confirm}
        onChange={(e) => props.onConfirmChange(e.target.value)}
        error={props.confirmError}
      />
    </>
  );
  return props.sideBySide ? <div className={form.row}>{fields}</div> : fields;
}

/** The schemas compare the two passwords only once every other field passes; the mismatch is said at once. */
export function withPasswordMatch(problems: FieldErrors, confirmField: string, password: string, confirm: string): FieldErrors {
  if (problems[confirmField] || !password || confirm === password) return problems;
  return { ...problems, [confirmField]: MSG.passwordsDoNotMatch };
}
