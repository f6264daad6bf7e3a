/**
 * The 'Stream Interaction Disabled' modal (spec part 2 §2 screen 11: no interaction while paused): what a
 * like, tip or report on a paused live stream or call shows. One hook for every place that refuses.
 */
import { useState, type ReactNode } from 'react';
import { MSG } from '../../common/messages';
import { Button } from './Button';
import { Modal } from './Modal';

export function useInteractionDisabled(): { show: () => void; modal: ReactNode } {
  const [open, setOpen] = useState(false);
  const modal = (
    <Modal
      open={open}
      onOpenChange={setOpen}
      size="sm"
      title={MSG.streamInteractionDisabled}
      description={MSG.streamPaused}
      footer={<Button onClick={() => setOpen(false)}>Ok</Button>}
    />
  );
  return { show: () => setOpen(true), modal };
}
