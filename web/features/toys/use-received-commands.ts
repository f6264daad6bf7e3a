/** The commands the host's toy received, newest first (the virtual toy's list and meter). */
import { useCallback, useState } from 'react';
import type { RealtimeMessageOf } from '../../../common/realtime';

export type ReceivedCommand = RealtimeMessageOf<'lovense-command'>['payload'];

const KEPT = 12;

export function useReceivedCommands() {
  const [received, setReceived] = useState<ReceivedCommand[]>([]);
  const add = useCallback((command: ReceivedCommand) => setReceived((list) => [command, ...list].slice(0, KEPT)), []);
  return { received, add };
}
