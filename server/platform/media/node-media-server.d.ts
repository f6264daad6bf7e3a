/** The small part of node-media-server 4.4.3 (pinned; it ships no types) that the ingest uses. */
declare module 'node-media-server' {
  import type { Server, Socket } from 'node:net';

  export interface NmsSession {
    id: string;
    ip: string;
    protocol: string;
    streamApp: string;
    streamName: string;
    streamPath: string;
    streamQuery: Record<string, string | string[] | undefined>;
    /** Present on RTMP sessions, the only kind the ingest accepts. */
    socket?: Socket;
    /** The RTMP parser of an RTMP session: every audio, video and data packet goes through its callback. */
    rtmp?: { onPacketCallback: (packet: { codec_type: number; codec_id: number; flags: number; dts: number; data: Buffer }) => void };
    close(): void;
  }

  export type NmsEvent = 'prePublish' | 'postPublish' | 'donePublish' | 'prePlay' | 'postPlay' | 'donePlay';

  export default class NodeMediaServer {
    constructor(config: Record<string, unknown>);
    on(event: NmsEvent, listener: (session: NmsSession) => void): void;
    rtmpServer: { run(): void; tcpServer?: Server };
    stop(): Promise<void>;
  }
}

declare module 'node-media-server/src/core/logger.js' {
  const logger: { level: string; log(message: string, level?: string): void };
  export default logger;
}

declare module 'node-media-server/src/core/context.js' {
  import type { EventEmitter } from 'node:events';
  const context: { eventEmitter: EventEmitter };
  export default context;
}

declare module 'node-media-server/src/protocol/sps_info.js' {
  /** Pixel size from a raw H.264 SPS NAL unit (with its header byte); null when it cannot be parsed. */
  export function parseH264Sps(sps: Buffer): { width: number; height: number } | null;
}
