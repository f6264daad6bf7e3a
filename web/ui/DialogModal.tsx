import { Dialog } from 'radix-ui';
import type { ReactNode } from 'react';
import styles from './Modal.module.css';

export interface ModalProps {
  open: boolean;
  onOpenChange?: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
  /** A choice the user must make: no close button, Escape and outside clicks do nothing. */
  blocking?: boolean;
  size?: 'sm' | 'md' | 'lg';
}

/** The dialog itself (Radix Dialog), loaded by `Modal` when it first opens. */
export function DialogModal({ open, onOpenChange, title, description, children, footer, blocking = false, size = 'md' }: ModalProps) {
  const stay = blocking ? (event: Event) => event.preventDefault() : undefined;
  return (
    <Dialog.Root open={open} onOpenChange={blocking ? undefined : onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className={styles.overlay} />
        <Dialog.Content
          className={`${styles.content} ${styles[size]}`}
          onEscapeKeyDown={stay}
          onPointerDownOutside={stay}
          onInteractOutside={stay}
        >
          <header className={styles.header}>
            <Dialog.Title className={styles.title}>{title}</Dialog.Title>
            {!blocking && (
              <Dialog.Close className={styles.close} aria-label="Close">
                <svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.2" aria-hidden="true">
                  <path d="M6 6l12 12M18 6L6 18" />
                </svg>
              </Dialog.Close>
            )}
          </header>
          {description ? (
            <Dialog.Description className={styles.description}>{description}</Dialog.Description>
          ) : (
            <Dialog.Description className="visually-hidden">{title}</Dialog.Description>
          )}
          {children && <div className={styles.body}>{children}</div>}
          {footer && <footer className={styles.footer}>{footer}</footer>}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
