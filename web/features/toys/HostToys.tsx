/** The broadcaster's side of toy-device access: the device-access button and its modal, and their device (virtual or Lovense). */
import { Suspense, useState } from 'react';
import type { MeetingParticipant } from '../../../common/realtime';
import { lazyOnDemand, lazyPage } from '../../app/lazy-page';
import { useHostAccessList, useToyDevice, useToyMessages } from './api';
import { DeviceAccessButton } from './DeviceAccessButton';
import { isOpenAccess, pickHostRecord, type ToyPlace } from './toy-rules';
import { useHangUpOnLeave } from './use-hang-up';
import { useLovenseHost } from './use-lovense-host';
import { useReceivedCommands } from './use-received-commands';
import { useToyToasts } from './use-toy-toasts';
import styles from './toys.module.css';

// The access dialog loads when opened; the device's status when there is a device (decision 0032).
const HostAccessModal = lazyOnDemand(() => import('./HostAccessModal'), 'HostAccessModal');
const LovenseStatus = lazyPage(() => import('./LovenseStatus'), 'LovenseStatus');
const VirtualToy = lazyPage(() => import('./VirtualToy'), 'VirtualToy');

export function HostToys({ place, myId, people }: { place: ToyPlace; myId: number; people: readonly MeetingParticipant[] | undefined }) {
  const [open, setOpen] = useState(false);
  const device = useToyDevice(true);
  const list = useHostAccessList(place, true);
  const record = pickHostRecord(list.data ?? []);
  const commands = useReceivedCommands();
  const lovense = useLovenseHost(device.data, place, myId);
  const toasts = useToyToasts();
  useToyMessages(myId, place, {
    ...toasts,
    onRecord: (changed) => {
      // A decline or a revoke closes the modals (spec part 2 §4).
      if (changed.access === 'DECLINE' || changed.access === 'REVOKE') setOpen(false);
    },
    onCommand: (command) => {
      commands.add(command);
      lovense.execute(command);
    },
  });
  // Only a meeting's host hangs up; a stream's access ends with the broadcast (the server revokes it then).
  useHangUpOnLeave(place, 'lovense-host-end-call', place.room === 'meeting' && record !== null && isOpenAccess(record.access));

  return (
    <div className={styles.bar}>
      <DeviceAccessButton record={record} onClick={() => setOpen(true)} />
      {device.data && (
        <Suspense fallback={null}>
          {lovense.active ? <LovenseStatus device={device.data} initialising={lovense.initialising} error={lovense.error} /> : <VirtualToy device={device.data} received={commands.received} />}
        </Suspense>
      )}
      <HostAccessModal open={open} onClose={() => setOpen(false)} place={place} myId={myId} record={record} people={people} />
    </div>
  );
}
