import type { UseMutationResult } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { MSG } from '../../../common/messages';
import { isApiError } from '../../api/client';
import { hasErrors } from '../../api/field-errors';
import type { FieldErrors, Refusal } from '../../api/field-errors';
import { useAppConfig } from '../system';
import { Captcha } from './Captcha';
import type { CaptchaHandle, CaptchaStrength } from './Captcha';

/** What a form sends for the captcha: `{ altcha }` when it is on, nothing when it is off. */
type CaptchaFields = { altcha?: string };
type CaptchaOutcome = { ok: true; fields: CaptchaFields } | { ok: false };

/**
 * The captcha of a form, present when the installation turned it on (GET /api/meta/app-config), or
 * once the server asked this form for the strong proof (then whatever the installation says).
 */
function useCaptcha(strength: CaptchaStrength) {
  const config = useAppConfig();
  const enabled = (config.data?.captcha ?? false) || strength === 'strong';
  const handle = useRef<CaptchaHandle>(null);
  const [verifying, setVerifying] = useState(false);

  const reset = () => handle.current?.reset();

  return {
    /** False while the app config is loading: a submit waits for it. */
    ready: !config.isPending,
    /** True while the proof of work is still running after a submit. */
    verifying,
    element: enabled ? <Captcha key={strength} ref={handle} strength={strength} /> : null,
    /** Waits for a fresh payload; on failure the widget restarts and the form shows MSG.captchaFailed. */
    async solve(): Promise<CaptchaOutcome> {
      if (!enabled) return { ok: true, fields: {} };
      if (!handle.current) return { ok: false };
      setVerifying(true);
      try {
        return { ok: true, fields: { altcha: await handle.current.getPayload() } };
      } catch {
        reset();
        return { ok: false };
      } finally {
        setVerifying(false);
      }
    },
    /** Every payload is single-use: call after each submission. */
    reset,
    failureMessage: MSG.captchaFailed,
  };
}

/** Where a captcha-guarded form shows what went wrong (see useFormState). */
interface FormFeedback {
  setErrors: (errors: FieldErrors) => void;
  setMessage: (message: string | null) => void;
  refuse: (refusal: Refusal) => void;
}

interface SendOutcome<O> {
  onSuccess: (out: O) => void;
  /** What the form shows for a refused call. */
  refusal: (error: unknown) => Refusal;
}

type SendArgs<I, O> = [input: I, problems: FieldErrors, outcome: SendOutcome<O>];

/**
 * The submit of a form guarded by the captcha: the client's problems stop it; otherwise the proof of
 * work, then the call with its payload, which is reset once the call settles (every payload is single-use).
 * A login the server answers with `proof_required` is sent once more by itself, with the strong proof.
 */
export function useCaptchaSubmit<I extends CaptchaFields, O>(mutation: UseMutationResult<O, Error, I>, form: FormFeedback) {
  const [strength, setStrength] = useState<CaptchaStrength>('standard');
  const captcha = useCaptcha(strength);
  const resend = useRef<SendArgs<I, O> | null>(null);
  const held = useRef<SendArgs<I, O> | null>(null);
  const [waitedForConfig, setWaitedForConfig] = useState(false);
  const latest = useRef<typeof submit | null>(null);
  const submit = {
    element: captcha.element,
    /** For the submit button: busy while waiting for the app config, solving or sending. */
    loading: (waitedForConfig && !captcha.ready) || captcha.verifying || mutation.isPending,
    async send(...[input, problems, outcome]: SendArgs<I, O>): Promise<void> {
      form.setMessage(null);
      form.setErrors(problems);
      if (hasErrors(problems)) return;
      // Sent before the form knows whether the captcha is on (a slow app config): held, then sent by the effect below.
      if (!captcha.ready) {
        held.current = [input, problems, outcome];
        setWaitedForConfig(true);
        return;
      }
      const solved = await captcha.solve();
      if (!solved.ok) {
        form.setMessage(captcha.failureMessage);
        return;
      }
      mutation.mutate(
        { ...input, ...solved.fields },
        {
          onSuccess: (out) => outcome.onSuccess(out),
          onError: (error) => {
            if (isApiError(error, 'proof_required') && strength === 'standard') {
              resend.current = [input, problems, outcome];
              setStrength('strong');
              return;
            }
            form.refuse(outcome.refusal(error));
          },
          onSettled: () => captcha.reset(),
        },
      );
    },
  };
  useEffect(() => {
    latest.current = submit;
  });
  useEffect(() => {
    const args = held.current;
    if (!captcha.ready || args === null) return;
    held.current = null;
    void latest.current?.send(...args);
  }, [captcha.ready]);
  // The strong widget mounts with the new strength: only then can the waiting submit solve it.
  useEffect(() => {
    const again = resend.current;
    resend.current = null;
    if (again) void latest.current?.send(...again);
  }, [strength]);
  return submit;
}
