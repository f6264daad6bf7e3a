import { useCallback, useState } from 'react';
import type { FieldErrors, Refusal } from './field-errors';

/**
 * The state of a form: its values, the message under each field and the one above the form.
 * Changing a field clears its message.
 */
export function useFormState<V extends object>(initial: V | (() => V), initialMessage: string | null = null) {
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState<string | null>(initialMessage);

  /** The change handler of `name`; `errorName` is the field the server and the schema call it, when that differs. */
  const field = <K extends keyof V & string>(name: K, errorName: string = name) => (value: V[K]) => {
    setValues((v) => ({ ...v, [name]: value }));
    setErrors((e) => ({ ...e, [errorName]: undefined }));
  };

  /** Shows what the server refused: under the fields, or above the form. */
  const refuse = useCallback((refusal: Refusal) => {
    setErrors(refusal.fields);
    setMessage(refusal.message);
  }, []);

  return { values, errors, setErrors, message, setMessage, field, refuse };
}
