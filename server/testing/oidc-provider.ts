/**
 * A real OpenID provider (oidc-provider) on 127.0.0.1 standing in for Google, Apple or Facebook in
 * integration tests and browser journeys. Authorization completes without any form: the provider
 * signs in as the account chosen with `signInAs` and grants what was asked.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { interactionPolicy, type Interaction, type ProviderContext } from 'oidc-provider';
import type { SocialProvider } from '../../common/api/social-login';

export interface TestAccount {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
}

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The account every following sign-in completes as. */
  signInAs(account: TestAccount): void;
  /** Environment that points the app's provider at this server (for startTestApp / startTestServer). */
  env(provider?: SocialProvider): Record<string, string>;
  close(): Promise<void>;
}

export const DEFAULT_TEST_ACCOUNT: TestAccount = {
  sub: 'test-user-1',
  email: 'social.tester@example.com',
  email_verified: true,
  name: 'Social Tester',
};

/**
 * Loopback callbacks of every provider. The client is "native", so oidc-provider accepts them on any
 * port (RFC 8252 §7.3): the app can listen on port 0 and still be a valid redirect target.
 */
const LOOPBACK_CALLBACKS = ['127.0.0.1', 'localhost'].flatMap((host) =>
  (['google', 'apple', 'facebook'] as const).map((p) => `http://${host}/api/auth/${p}/callback`),
);

export async function startTestOidcProvider(
  options: { redirectUris?: string[]; account?: TestAccount } = {},
): Promise<TestOidcProvider> {
  const clientId = 'limelight-test';
  const clientSecret = randomBytes(24).toString('base64url');
  const accounts = new Map<string, TestAccount>();
  let current = options.account ?? DEFAULT_TEST_ACCOUNT;
  accounts.set(current.sub, current);

  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const policy = interactionPolicy.base();
  // Sign in again whenever the provider's own session belongs to another account than the chosen one.
  policy
    .get('login')
    .checks.push(
      new interactionPolicy.Check('account_switched', 'another test account was chosen', (ctx: ProviderContext) =>
        ctx.oidc.session.accountId !== undefined && ctx.oidc.session.accountId !== current.sub,
      ),
    );

  const signingKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        application_type: 'native',
        redirect_uris: [...LOOPBACK_CALLBACKS, ...(options.redirectUris ?? [])],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    jwks: { keys: [{ ...signingKey, kid: 'test-key', use: 'sig', alg: 'RS256' }] },
    cookies: { keys: [randomBytes(16).toString('hex')] },
    ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 3600, IdToken: 600, Interaction: 600, Session: 3600 },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    // Like Google and Apple: the ID token itself carries email and name.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    interactions: { policy, url: (_ctx: unknown, interaction: Interaction) => `/interaction/${interaction.uid}` },
    async findAccount(_ctx: unknown, sub: string) {
      const account = accounts.get(sub);
      return account && { accountId: sub, claims: async () => ({ ...account }) };
    },
  });

  async function interact(req: http.IncomingMessage, res: http.ServerResponse) {
    const details = await provider.interactionDetails(req, res);
    if (details.prompt.name === 'login') {
      await provider.interactionFinished(req, res, { login: { accountId: current.sub } }, { mergeWithLastSubmission: false });
      return;
    }
    const accountId = details.session?.accountId ?? current.sub;
    const grant =
      (details.grantId ? await provider.Grant.find(details.grantId) : undefined) ??
      new provider.Grant({ accountId, clientId: details.params.client_id });
    const { missingOIDCScope, missingOIDCClaims } = details.prompt.details;
    if (missingOIDCScope) grant.addOIDCScope(missingOIDCScope.join(' '));
    if (missingOIDCClaims) grant.addOIDCClaims(missingOIDCClaims);
    await provider.interactionFinished(req, res, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true });
  }

  /** Facebook's Graph `/me`: the profile of the access token's account; no email when it has none. */
  async function graphMe(req: http.IncomingMessage, res: http.ServerResponse) {
    const token = await provider.AccessToken.find(req.headers.authorization?.replace(/^Bearer /i, '') ?? '');
    const account = token && accounts.get(token.accountId);
    res.setHeader('content-type', 'application/json');
    if (!account) {
      res.statusCode = 400;
      res.end(JSON.stringify({ error: { message: 'Invalid OAuth access token.', type: 'OAuthException', code: 190 } }));
      return;
    }
    res.end(JSON.stringify({ id: account.sub, name: account.name, ...(account.email ? { email: account.email } : {}) }));
  }

  const handle = provider.callback();
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const route = req.url?.startsWith('/interaction/') ? interact : req.url?.startsWith('/graph/me') ? graphMe : null;
    if (!route) return handle(req, res);
    route(req, res).catch((error: unknown) => {
      res.statusCode = 400;
      res.end(`test provider failed: ${String(error)}`);
    });
  });

  return {
    issuer,
    clientId,
    clientSecret,
    signInAs(account) {
      accounts.set(account.sub, account);
      current = account;
    },
    env(kind = 'google') {
      const prefix = kind.toUpperCase();
      const client = { [`${prefix}_CLIENT_ID`]: clientId, [`${prefix}_CLIENT_SECRET`]: clientSecret };
      if (kind !== 'facebook') return { ...client, [`${prefix}_ISSUER`]: issuer };
      return { ...client, FACEBOOK_AUTH_URL: `${issuer}/auth`, FACEBOOK_TOKEN_URL: `${issuer}/token`, FACEBOOK_GRAPH_URL: `${issuer}/graph` };
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
