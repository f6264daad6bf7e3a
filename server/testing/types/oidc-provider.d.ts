/** The few parts of oidc-provider (ships no types) that the test provider uses. */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface Interaction {
    uid: string;
    prompt: { name: string; details: { missingOIDCScope?: string[]; missingOIDCClaims?: string[] } };
    params: Record<string, unknown> & { client_id: string };
    session?: { accountId?: string };
    grantId?: string;
  }

  export interface ProviderContext {
    oidc: { session: { accountId?: string } };
  }

  export class Grant {
    constructor(init: { accountId: string; clientId: string });
    addOIDCScope(scope: string): void;
    addOIDCClaims(claims: string[]): void;
    save(): Promise<string>;
  }

  export class Provider {
    constructor(issuer: string, configuration?: Record<string, unknown>);
    readonly Grant: typeof Grant & { find(id: string): Promise<Grant | undefined> };
    readonly AccessToken: { find(token: string): Promise<{ accountId: string } | undefined> };
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
  }

  export const interactionPolicy: {
    Check: new (reason: string, description: string, check: (ctx: ProviderContext) => boolean) => unknown;
    base(): Array<{ name: string; checks: unknown[] }> & { get(name: string): { name: string; checks: unknown[] } };
  };

  export default Provider;
}
