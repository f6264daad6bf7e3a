/** The viewer's side of toy-device access: the offer, then the control panel (or 'Device not found'). */
import { useToyMessages, useViewerAccess } from './api';
import { AccessOfferModal } from './AccessOfferModal';
import { ControlPanel } from './ControlPanel';
import { DeviceNotFound } from './DeviceNotFound';
import { isOpenAccess, viewerView, type ToyPlace } from './toy-rules';
import { useHangUpOnLeave } from './use-hang-up';
import { useToyToasts } from './use-toy-toasts';

export function ViewerToys({ place, myId, hostName }: { place: ToyPlace; myId: number; hostName: string }) {
  const mine = useViewerAccess(place, myId, true);
  const record = mine.data ?? null;
  useToyMessages(myId, place, useToyToasts());
  useHangUpOnLeave(place, 'lovense-viewer-end-call', record !== null && isOpenAccess(record.access));

  if (!record) return null;
  switch (viewerView(record)) {
    case 'SHOW_ACCESS_OFFER':
    case 'SHOW_TIP_REQUEST':
      return <AccessOfferModal key={`${record.id}-${record.viewer_state}`} record={record} place={place} myId={myId} hostName={hostName} />;
    case 'SHOW_CONTROLS':
      return <ControlPanel record={record} place={place} />;
    case 'SHOW_DEVICE_NOT_FOUND':
      return <DeviceNotFound place={place} requested={record.broadcaster_state === 'SHOW_TOY_ADD_PENDING'} />;
    default:
      return null;
  }
}
