/** Publish/subscribe between services and the realtime gateway, across instances when scaled out. */
export type BusHandler = (message: unknown) => void;

export interface Bus {
  publish(channel: string, message: unknown): Promise<void>;
  /** Returns the unsubscribe function. */
  subscribe(channel: string, handler: BusHandler): Promise<() => Promise<void>>;
  /**
   * Calls `listener` each time the bus connects again after losing its connection: messages published
   * meanwhile are lost, so whoever keeps state on them starts afresh. Returns the function that stops it.
   */
  onResume?(listener: () => void): () => void;
  close(): Promise<void>;
}
