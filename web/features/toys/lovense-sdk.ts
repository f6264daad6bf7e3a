/**
 * Lovense's browser SDK (TOYS=lovense), loaded from the address the server gives (`sdk_url`, from
 * LOVENSE_SDK_URL). Only the calls of Lovense's Basic JS SDK documentation are used: the constructor
 * with `{platform, authToken, uid}`, `ready`, `on('appStatusChange' | 'toyInfoChange' | 'sdkError')`,
 * `getOnlineToys`, `sendToyCommand` and `destroy`. Not tried against Lovense's real SDK (decision 0020).
 */
import type { ToyCommand } from '../../../common/rules/toys';

export interface LovenseSdk {
  ready(callback: (sdk: LovenseSdk) => void): void;
  on(event: 'appStatusChange' | 'toyInfoChange' | 'sdkError', callback: (data: unknown) => void): void;
  getOnlineToys?(): Promise<unknown[]> | unknown[];
  sendToyCommand(command: Record<string, number | string>): Promise<unknown> | unknown;
  destroy?(): void;
}

type LovenseSdkConstructor = new (options: { platform: string; authToken: string; uid: string }) => LovenseSdk;

declare global {
  interface Window {
    LovenseBasicSdk?: LovenseSdkConstructor;
  }
}

const loading = new Map<string, Promise<void>>();

/** Adds the SDK's script once per address; a failed load can be tried again. */
export function loadSdkScript(url: string): Promise<void> {
  const known = loading.get(url);
  if (known) return known;
  const promise = new Promise<void>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = url;
    script.async = true;
    script.onload = () => resolve();
    script.onerror = () => {
      loading.delete(url);
      script.remove();
      reject(new Error('The Lovense SDK did not load.'));
    };
    document.head.append(script);
  });
  loading.set(url, promise);
  return promise;
}

/** Loads the SDK and resolves once it says it is ready. */
export async function startLovenseSdk(url: string, token: { platform: string; authToken: string; uid: string }): Promise<LovenseSdk> {
  await loadSdkScript(url);
  const Sdk = window.LovenseBasicSdk;
  if (!Sdk) throw new Error('The Lovense SDK did not load.');
  const sdk = new Sdk(token);
  return new Promise((resolve) => sdk.ready(resolve));
}

/** Lovense's command for ours: the action in lower case with its level, held until the next (`time` 0). */
export const sdkCommandOf = (command: ToyCommand, level: number): Record<string, number> => ({ [command.toLowerCase()]: level, time: 0 });

/** Whether an `appStatusChange` says the app is connected (documented as 'online' / 'offline'; a boolean is accepted too). */
export const appOnline = (status: unknown): boolean => status === true || status === 'online' || status === 'connected';
