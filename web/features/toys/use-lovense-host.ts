/**
 * The host's Lovense SDK (TOYS=lovense): started with the broadcaster's auth token, it reports the app's
 * connection to the server (`lovense-device`) and runs the commands the server checked and delivered.
 * The "initialising" flag clears TOY.sdkInitFlagMs after setup starts (spec part 2 §9).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ToyDevice } from '../../../common/api/toys';
import { TOY } from '../../../common/constants';
import { MSG } from '../../../common/messages';
import { fetchLovenseToken, useSetToyDevice } from './api';
import { sdkCommandOf, startLovenseSdk, type LovenseSdk } from './lovense-sdk';
import type { ReceivedCommand } from './use-received-commands';
import type { ToyPlace } from './toy-rules';

export function useLovenseHost(device: ToyDevice | undefined, place: ToyPlace, myId: number) {
  const sdkRef = useRef<LovenseSdk | null>(null);
  // Set from callbacks only, for the address they concern: a new address starts clean.
  const [settledFor, setSettledFor] = useState<string | null>(null);
  const [failure, setFailure] = useState<{ url: string | null; message: string } | null>(null);
  const { mutate: report } = useSetToyDevice();
  const url = device?.provider === 'lovense' ? device.sdk_url : null;
  const { stream_id, room } = place;

  useEffect(() => {
    if (!url) return;
    let stopped = false;
    const fail = () => !stopped && setFailure({ url, message: MSG.toyServiceUnavailable });
    const flag = setTimeout(() => setSettledFor(url), TOY.sdkInitFlagMs);
    fetchLovenseToken(myId, { stream_id, room })
      .then((token) => startLovenseSdk(url, token))
      .then((sdk) => {
        if (stopped) return sdk.destroy();
        sdkRef.current = sdk;
        sdk.on('appStatusChange', (connected) => report({ connected: connected === true }));
        sdk.on('sdkError', fail);
      })
      .catch(fail);
    return () => {
      stopped = true;
      clearTimeout(flag);
      sdkRef.current?.destroy();
      sdkRef.current = null;
    };
  }, [url, myId, stream_id, room, report]);

  const execute = useCallback((command: ReceivedCommand) => {
    const sdk = sdkRef.current;
    const sdkCommand = sdkCommandOf(command.command, command.level);
    if (!sdk || !sdkCommand) return;
    void Promise.resolve(sdk.sendToyCommand(sdkCommand)).catch(() => setFailure({ url: null, message: MSG.toyServiceUnavailable }));
  }, []);

  return { active: url !== null, initialising: url !== null && settledFor !== url, error: failure && (failure.url === null || failure.url === url) ? failure.message : null, execute };
}
