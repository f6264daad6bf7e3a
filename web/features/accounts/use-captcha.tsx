import { useRef, useState } from 'react';
import { MSG } from '../../../common/messages';
import { useAppConfig } from '../system/api';
import { Captcha } from './Captcha';
import type { CaptchaHandle } from './Captcha';

/** What a form sends for the captcha: `{ altcha }` when it is on, nothing when it is off. */
export type CaptchaOutcome = { ok: true; fields: { altcha?: string } } | { ok: false };

/** The captcha of a form, present only when the installation turned it on (GET /api/meta/app-config). */
export function useCaptcha() {
  const config = useAppConfig();
  const enabled = config.data?.captcha ?? false;
  const handle = useRef<CaptchaHandle>(null);
  const [verifying, setVerifying] = useState(false);

  const reset = () => handle.current?.reset();

  return {
    /** False while the app config is loading: the form should wait before it submits. */
    ready: !config.isPending,
    /** True while the proof of work is still running after a submit. */
    verifying,
    element: enabled ? <Captcha ref={handle} /> : null,
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
