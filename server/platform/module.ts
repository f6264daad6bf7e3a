/**
 * The module contract (docs/architecture.md, "Modules"; decision 0013). A domain module is one folder
 * under server/modules with one entry, `index.ts`, exporting `create<Name>Module(context)`. The app
 * builds the modules in the order of its list; each gets the platform and the public services of the
 * modules before it (`use`), and answers what it adds: its services, HTTP routes, jobs and realtime
 * operations. Modules talk to later modules through domain events (platform/events.ts), and take what
 * a later module answers through a declared hook (`hook` and `fill`, platform/hooks.ts).
 */
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import type { Bus } from './bus/bus';
import type { Captcha } from './captcha';
import type { Db } from './db/client';
import type { DomainEventHub } from './events';
import type { EventOutbox } from './event-outbox';
import type { Access } from './http/access';
import type { SessionStore } from './http/sessions';
import type { Job, OwnedJob } from './jobs/scheduler';
import type { Mailer } from './mail/mailer';
import type { FileStore } from './storage/storage';

/** Every module's public services by name; each module adds its own by augmenting this interface. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by each module's declaration
export interface ModuleServices {}
export type ServiceName = keyof ModuleServices;

/**
 * What later modules hand to earlier ones, by hook name (platform/hooks.ts): the module that declares a
 * hook adds its type by augmenting this interface.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by each module's declaration
export interface ModuleHooks {}
export type HookName = keyof ModuleHooks;

/** Platform pieces built before any module. */
export interface PlatformServices {
  sessions: SessionStore;
  captcha: Captcha;
  mailer: Mailer;
  csrfTokenFor(request: FastifyRequest, reply: FastifyReply): string;
  /** Domain events written in a change's transaction, handled after its commit at least once. */
  outbox: EventOutbox;
  /** Every job of the app, whichever role runs it (complete once every module is built: read it when asked). */
  jobs: readonly OwnedJob[];
}

export interface ModuleContext {
  /** For what must be installed on the server itself (a WebSocket endpoint, request decorations). */
  app: FastifyInstance;
  config: Config;
  db: Db;
  bus: Bus;
  files: FileStore;
  events: DomainEventHub;
  log: FastifyBaseLogger;
  platform: PlatformServices;
  /** A named secret kept in the database, made on first use. */
  secret(name: string): Promise<string>;
  /** Another module's public service; that module must come earlier in the list. */
  service<K extends ServiceName>(name: K): ModuleServices[K];
  /** Declares a hook this module reads and `filledBy`, a later module, fills; answers its reader (valid once the app is built). */
  hook<K extends HookName>(name: K, filledBy: string): () => ModuleHooks[K];
  /** Fills a hook an earlier module declared for this one. */
  fill<K extends HookName>(name: K, value: ModuleHooks[K]): void;
}

/** A realtime operation a module answers, for the route table (the gateway dispatches them). */
export interface RealtimeOp {
  op: 'subscribe' | 'send';
  /** A channel pattern (`stream:<id>`) or a client message type (`COMMENT`). */
  name: string;
  auth: 'anonymous' | 'user';
  /** Who may do it, as the spec says (the refusal matrix checks it). */
  access: Access;
  /** The file with the rule, relative to the repository. */
  handler: string;
}

export interface AppModule {
  name: string;
  services?: Partial<ModuleServices>;
  /** Registers the module's HTTP routes (addRoute with its call definitions). */
  routes?(app: FastifyInstance): void | Promise<void>;
  jobs?: Job[];
  realtime?: RealtimeOp[];
  /** After the server listens (the media node's ingest). */
  start?(): Promise<void>;
  /** When the server closes; modules stop in reverse order. */
  stop?(): Promise<void>;
}

export type ModuleFactory = (context: ModuleContext) => AppModule | Promise<AppModule>;
