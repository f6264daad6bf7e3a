/** The toy lines as toasts: the server's lines at once, the app-connection statuses delayed and one at a time. */
import { useEffect, useMemo } from 'react';
import { TOY } from '../../../common/constants';
import { useToast } from '../../ui/Toast';
import { statusToasts } from './status-toasts';

export function useToyToasts() {
  const toast = useToast();
  const statuses = useMemo(() => statusToasts(TOY.toastDelayMs, (title) => toast({ title, tone: 'info' }), globalThis), [toast]);
  useEffect(() => () => statuses.dispose(), [statuses]);
  return useMemo(() => ({ onText: (title: string) => toast({ title, tone: 'info' }), onAppStatus: (text: string) => statuses.push(text) }), [toast, statuses]);
}
