/** Publish/subscribe between services and the realtime gateway, across instances when scaled out. */
export type BusHandler = (message: unknown) => void;

/** `up`: publishing reaches the other instances now; `down`: the bus keeps what is published until it is up again. */
export type BusState = 'up' | 'down';

export interface BusStateChange {
  state: BusState;
  /** On `up`: messages of the outage that did not fit in the backlog (the oldest are dropped first). */
  dropped: number;
  /** On `up`: messages of the outage kept and published now. */
  redelivered: number;
}

export interface Bus {
  /**
   * Hands `message` to every instance's subscribers of `channel`. Never waits on the bus being reachable
   * and never fails for it: while it is down the message waits in a bounded backlog, published in order
   * once it is up again (decision 0044), so what the database committed is answered as committed.
   */
  publish(channel: string, message: unknown): Promise<void>;
  /** Returns the unsubscribe function. Subscribing while the bus is down takes effect when it is up. */
  subscribe(channel: string, handler: BusHandler): Promise<() => Promise<void>>;
  /** The bus's state now. */
  state(): BusState;
  /**
   * Calls `listener` each time the bus goes down or comes up again. After a `down`, messages from other
   * instances may have been missed: whoever keeps state on them starts afresh on the next `up` (caches are
   * dropped, sockets told to resync). Returns the function that stops it.
   */
  onStateChange(listener: (change: BusStateChange) => void): () => void;
  /** Calls `listener` each time the bus is up again after an outage: `onStateChange` narrowed to `up`. */
  onResume?(listener: () => void): () => void;
  close(): Promise<void>;
}

/** Writes the bus's outages to the log: a warning when it goes down, and what was kept and dropped when it is up again. */
export function logBusStates(bus: Bus, log: { warn(details: object, message: string): void; info(details: object, message: string): void }): () => void {
  return bus.onStateChange(({ state, dropped, redelivered }) => {
    if (state === 'down') log.warn({}, 'bus down: publishing into the backlog');
    else if (dropped > 0) log.warn({ dropped, redelivered }, 'bus up again: the oldest messages of the outage were dropped');
    else log.info({ redelivered }, 'bus up again');
  });
}
