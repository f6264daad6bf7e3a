/** The viewer's side of toy-device access: the offer, then the control panel (or 'Device not found'). */
import { Suspense } from 'react';
import type { ToyAccessRecord } from '../../../common/api/toys';
import { lazyPage } from '../../app/lazy-page';
import { useToyMessages, useViewerAccess } from './api';
import { isOpenAccess, viewerView, type ToyPlace } from './toy-rules';
import { useHangUpOnLeave } from './use-hang-up';
import { useToyToasts } from './use-toy-toasts';

// The offer, the controls and 'Device not found' load when the host offers access (decision 0032).
const AccessOfferModal = lazyPage(() => import('./AccessOfferModal'), 'AccessOfferModal');
const ControlPanel = lazyPage(() => import('./ControlPanel'), 'ControlPanel');
const DeviceNotFound = lazyPage(() => import('./DeviceNotFound'), 'DeviceNotFound');

export function ViewerToys({ place, myId, hostName }: { place: ToyPlace; myId: number; hostName: string }) {
  const mine = useViewerAccess(place, myId, true);
  const record = mine.data ?? null;
  useToyMessages(myId, place, useToyToasts());
  useHangUpOnLeave(place, 'lovense-viewer-end-call', record !== null && isOpenAccess(record.access));

  if (!record) return null;
  return (
    <Suspense fallback={null}>
      <ViewerPart record={record} place={place} myId={myId} hostName={hostName} />
    </Suspense>
  );
}

function ViewerPart({ record, place, myId, hostName }: { record: ToyAccessRecord; place: ToyPlace; myId: number; hostName: string }) {
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
