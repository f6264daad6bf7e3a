/**
 * Lovense's Basic JS SDK (TOYS=lovense), loaded from the address the server gives (`sdk_url`, from
 * LOVENSE_SDK_URL; Lovense documents https://api.lovense-api.com/basic-sdk/core.min.js). Only calls of
 * its documentation are used: the global `LovenseBasicSdk` constructor with `{platform, authToken, uid}`,
 * the `ready`, `appStatusChange` (true | false) and `sdkError` events, `sendToyCommand` and `destroy`.
 * Not tried against Lovense's real SDK (decision 0020).
 */
import type { ToyCommand } from '../../../common/rules/toys';
import { loadScript } from '../../ui/load-script';

export interface LovenseSdk {
  on(event: 'ready', callback: (sdk: LovenseSdk) => void): void;
  on(event: 'appStatusChange', callback: (connected: boolean) => void): void;
  on(event: 'sdkError', callback: (error: { code?: number; message?: string }) => void): void;
  sendToyCommand(command: SdkCommand): Promise<unknown> | unknown;
  destroy(): void;
}

type LovenseSdkConstructor = new (options: { platform: string; authToken: string; uid: string }) => LovenseSdk;

declare global {
  interface Window {
    LovenseBasicSdk?: LovenseSdkConstructor;
  }
}

/** Loads the SDK and resolves once it says it is ready. */
export async function startLovenseSdk(url: string, token: { platform: string; authToken: string; uid: string }): Promise<LovenseSdk> {
  await loadScript(url);
  const Sdk = window.LovenseBasicSdk;
  if (!Sdk) throw new Error('The Lovense SDK did not load.');
  const sdk = new Sdk(token);
  return new Promise((resolve) => sdk.on('ready', resolve));
}

/** The strengths `sendToyCommand` takes (its documented parameters); `time` 0 holds until the next command. */
const SDK_PARAMETERS: Partial<Record<ToyCommand, string>> = {
  Vibrate: 'vibrate',
  Rotate: 'rotate',
  Pump: 'pump',
  Thrusting: 'thrusting',
  Fingering: 'fingering',
  Suction: 'suction',
};

export type SdkCommand = Record<string, number>;

/** Lovense's command for ours, or null for a command the Basic SDK has no parameter for (Depth, Oscillate, Stroke, Position). */
export function sdkCommandOf(command: ToyCommand, level: number): SdkCommand | null {
  const parameter = SDK_PARAMETERS[command];
  return parameter ? { [parameter]: level, time: 0 } : null;
}
