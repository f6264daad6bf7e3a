import { useState } from 'react';
import { Button } from '../../ui/Button';
import { Modal } from '../../ui/Modal';
import prose from '../../ui/prose.module.css';
import { useSystemMessages } from './api';
import { safeHtml } from './safe-html';

const seenKey = (locale: string) => `limelight.system-messages.seen.${locale}`;

function readSeen(locale: string): Set<number> {
  try {
    const ids: unknown = JSON.parse(localStorage.getItem(seenKey(locale)) ?? '[]');
    return new Set(Array.isArray(ids) ? ids.filter((id): id is number => typeof id === 'number') : []);
  } catch {
    return new Set();
  }
}

function markSeen(locale: string, id: number): void {
  try {
    localStorage.setItem(seenKey(locale), JSON.stringify([...readSeen(locale), id]));
  } catch {
    // Storage unavailable: the message may show again next time, which is harmless.
  }
}

function browserLocale(): string {
  return (navigator.language || 'en').slice(0, 2).toLowerCase();
}

/** Server notices for a signed-in user, one modal after another; "once" messages are remembered per locale. */
export function SystemMessages() {
  const [locale] = useState(browserLocale);
  const messages = useSystemMessages(locale, true);
  const [dismissed, setDismissed] = useState<ReadonlySet<number>>(new Set());
  const seen = readSeen(locale);
  const current = messages.data?.find((m) => !dismissed.has(m.id) && !(m.frequency === 'once' && seen.has(m.id)));
  if (!current) return null;

  const close = () => {
    if (current.frequency === 'once') markSeen(locale, current.id);
    setDismissed((ids) => new Set(ids).add(current.id));
  };

  return (
    <Modal
      open
      onOpenChange={(open) => !open && close()}
      title={current.title}
      footer={<Button onClick={close}>Got it</Button>}
    >
      {/* System messages are written by the operators as HTML: shown with only safe formatting left. */}
      <div className={prose.prose} dangerouslySetInnerHTML={{ __html: safeHtml(current.content) }} />
    </Modal>
  );
}
