import { describe, expect, it } from 'vitest';
import { lintAs as lint } from './lint-as';

describe('the module boundary rules', () => {
  it("refuse another module's tables, routes and internals, and take its entry", () => {
    expect(lint('server/modules/chat/probe.ts', "import { streams } from '../streams/tables';")).toEqual([
      expect.stringContaining('Module "chat" reaches module "streams" through its internals (server/modules/streams/tables.ts)'),
    ]);
    expect(lint('server/modules/chat/probe.ts', "import { viewerOf } from '../streams/viewer';")).toHaveLength(1);
    expect(lint('server/modules/chat/probe.ts', "export { registerStreamRoutes } from '../streams/routes';")).toHaveLength(1);
    expect(lint('server/modules/chat/probe.ts', "import { viewerOf } from '../streams';")).toEqual([]);
    expect(lint('server/modules/chat/probe.ts', "import { parseChannel } from './channels';")).toEqual([]);
  });

  it('hold start-up, demo data, test helpers, scripts and benchmarks to the same entries', () => {
    expect(lint('server/probe.ts', "import { users } from './modules/accounts/tables';")).toEqual([
      expect.stringContaining('server/probe.ts reaches module "accounts" through its internals (server/modules/accounts/tables.ts)'),
    ]);
    expect(lint('server/testing/probe.ts', "import { createLedger } from '../modules/ledger/service';")).toHaveLength(1);
    expect(lint('scripts/probe.ts', "import { createFold } from '../server/modules/analytics/fold';")).toHaveLength(1);
    expect(lint('bench/probe.ts', "import { createLedger } from '../server/modules/ledger';")).toEqual([]);
    // Tests may reach inside the module they test (and its neighbours' tables for their set-up).
    expect(lint('server/probe.int.test.ts', "import { users } from './modules/accounts/tables';")).toEqual([]);
  });

  it("let a tables file refer to another module's tables for its foreign keys", () => {
    expect(lint('server/modules/chat/tables.ts', "import { streams } from '../streams/tables';")).toEqual([]);
    expect(lint('server/modules/chat/service.ts', "import { streams } from '../streams/tables';")).toHaveLength(1);
  });

  it('refuse an import that closes a cycle between modules or top folders', () => {
    // chat already imports streams: streams importing chat would close the circle.
    expect(lint('server/modules/streams/probe.ts', "import type { ChatService } from '../chat';")).toEqual([
      expect.stringMatching(/^Import cycle between modules: streams → chat( → \w+)* → streams\.$/),
    ]);
    // scripts import the server: the server importing a script would close the circle.
    expect(lint('server/probe.ts', "import '../scripts/routes';")).toEqual([
      expect.stringMatching(/^Import cycle between top folders: server → scripts → server\.$/),
    ]);
    expect(lint('server/probe.ts', "import '../common/messages';")).toEqual([]);
  });
});
