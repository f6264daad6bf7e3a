import { Toast as RadixToast } from 'radix-ui';
import { createContext, use, useCallback, useMemo, useState } from 'react';
import type { ReactNode } from 'react';
import styles from './Toast.module.css';

export type ToastTone = 'success' | 'error' | 'info';

interface ToastItem {
  id: number;
  title: string;
  description?: string | undefined;
  tone: ToastTone;
}

type ShowToast = (toast: { title: string; description?: string; tone?: ToastTone }) => void;

const ToastContext = createContext<ShowToast | null>(null);

let nextId = 1;

/** Toasts for outcomes; `durationMs` is the skin's toast time. */
export function ToastProvider({ durationMs, children }: { durationMs: number; children: ReactNode }) {
  const [toasts, setToasts] = useState<ToastItem[]>([]);
  const show = useCallback<ShowToast>(({ title, description, tone = 'info' }) => {
    setToasts((list) => [...list, { id: nextId++, title, description, tone }]);
  }, []);
  const remove = useCallback((id: number) => setToasts((list) => list.filter((t) => t.id !== id)), []);
  const value = useMemo(() => show, [show]);
  return (
    <ToastContext value={value}>
      <RadixToast.Provider duration={durationMs} swipeDirection="right">
        {children}
        {toasts.map((t) => (
          <RadixToast.Root
            key={t.id}
            className={`${styles.toast} ${styles[t.tone]}`}
            type={t.tone === 'error' ? 'foreground' : 'background'}
            onOpenChange={(open) => !open && remove(t.id)}
          >
            <RadixToast.Title className={styles.title}>{t.title}</RadixToast.Title>
            {t.description && <RadixToast.Description className={styles.description}>{t.description}</RadixToast.Description>}
            <RadixToast.Close className={styles.close} aria-label="Dismiss">
              ×
            </RadixToast.Close>
          </RadixToast.Root>
        ))}
        <RadixToast.Viewport className={styles.viewport} />
      </RadixToast.Provider>
    </ToastContext>
  );
}

export function useToast(): ShowToast {
  const show = use(ToastContext);
  if (!show) throw new Error('useToast needs a ToastProvider');
  return show;
}
