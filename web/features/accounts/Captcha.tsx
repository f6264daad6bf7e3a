/** The invisible altcha proof of work. A payload is single-use: reset() after every submission. */
import type {} from 'altcha';
import type {} from 'altcha/types/react';
import { useEffect, useImperativeHandle, useRef } from 'react';
import type { Ref } from 'react';
import { MSG } from '../../../common/messages';

export const CAPTCHA_CHALLENGE_PATH = '/api/captcha/challenge';

export interface CaptchaHandle {
  /** The verified payload, waiting for the proof of work when it is still running. */
  getPayload(): Promise<string>;
  /** Drops the used payload and starts a new proof of work. */
  reset(): void;
}

interface Waiter {
  resolve: (payload: string) => void;
  reject: (error: Error) => void;
}

interface StateDetail {
  state: string;
  payload?: string;
}

/** `strong`: the longer proof a login must carry after many failures (the server answered `proof_required`). */
export type CaptchaStrength = 'standard' | 'strong';

export function Captcha({ ref, strength = 'standard' }: { ref: Ref<CaptchaHandle>; strength?: CaptchaStrength }) {
  const widgetRef = useRef<HTMLElementTagNameMap['altcha-widget']>(null);
  const payload = useRef<string | null>(null);
  const waiters = useRef<Waiter[]>([]);

  useEffect(() => {
    const widget = widgetRef.current;
    if (!widget) return;
    // The widget code is big: it loads with the first form that needs it and upgrades the element in place.
    import('altcha').catch(() => {
      for (const w of waiters.current.splice(0)) w.reject(new Error(MSG.captchaFailed));
    });
    const onStateChange = (event: Event) => {
      const { state, payload: verified } = (event as CustomEvent<StateDetail>).detail;
      if (state === 'verified' && verified) {
        payload.current = verified;
        for (const w of waiters.current.splice(0)) w.resolve(verified);
      } else if (state === 'error') {
        payload.current = null;
        for (const w of waiters.current.splice(0)) w.reject(new Error(MSG.captchaFailed));
      } else if (state === 'expired') {
        payload.current = null;
      }
    };
    widget.addEventListener('statechange', onStateChange);
    return () => widget.removeEventListener('statechange', onStateChange);
  }, []);

  useImperativeHandle(ref, () => ({
    getPayload() {
      if (payload.current) return Promise.resolve(payload.current);
      const widget = widgetRef.current;
      const pending = new Promise<string>((resolve, reject) => waiters.current.push({ resolve, reject }));
      if (widget && typeof widget.getState === 'function' && widget.getState() !== 'verifying') void widget.verify();
      return pending;
    },
    reset() {
      payload.current = null;
      const widget = widgetRef.current;
      if (!widget || typeof widget.reset !== 'function') return;
      widget.reset();
      void widget.verify();
    },
  }));

  const challenge = strength === 'standard' ? CAPTCHA_CHALLENGE_PATH : `${CAPTCHA_CHALLENGE_PATH}?strength=${strength}`;
  return <altcha-widget ref={widgetRef} challenge={challenge} auto="onload" display="invisible" />;
}
