/**
 * The social sign-in providers this installation configured, each behind one interface: build the
 * authorization URL, then turn the callback into a verified profile. Google and Apple are OpenID
 * Connect (discovered lazily, ID token checked by openid-client); Facebook is plain OAuth 2 plus
 * the Graph API.
 */
import { createHmac } from 'node:crypto';
import * as oidc from 'openid-client';
import { z } from 'zod';
import type { SocialProvider } from '../../../common/api/social-login';
import { LIMITS } from '../../../common/constants';
import type { SocialClients } from '../../config';

export interface SocialProfile {
  subject: string;
  /** Only an address the provider vouches for; null when it gave none. */
  email: string | null;
  name: string | null;
}

export interface FlowChecks {
  state: string;
  nonce: string;
  codeVerifier: string;
}

export interface SocialProviderClient {
  /** Apple posts the authorization response cross-site (form_post); the others redirect with a query. */
  responseMode: 'query' | 'form_post';
  authorizationUrl(redirectUri: string, checks: FlowChecks): Promise<URL>;
  /** Redeems the code of the callback URL (PKCE, state, and nonce when OpenID) for the profile. */
  profile(callbackUrl: URL, checks: FlowChecks): Promise<SocialProfile>;
}

export type SocialProviders = Partial<Record<SocialProvider, SocialProviderClient>>;

const TIMEOUT_SECONDS = 10;
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Plain HTTP only for a provider on this machine (tests, local development). */
const isLocalHttp = (url: string) => {
  const parsed = new URL(url);
  return parsed.protocol === 'http:' && LOOPBACK_HOSTS.has(parsed.hostname);
};

const boundedText = (value: unknown, max: number) =>
  typeof value === 'string' && value.trim() !== '' && value.length <= max ? value.trim() : null;

async function pkceParameters(redirectUri: string, checks: FlowChecks) {
  return {
    redirect_uri: redirectUri,
    state: checks.state,
    code_challenge: await oidc.calculatePKCECodeChallenge(checks.codeVerifier),
    code_challenge_method: 'S256',
  };
}

function openIdClient(
  settings: { issuer: string; clientId: string; clientSecret: string },
  options: { scope: string; responseMode: SocialProviderClient['responseMode'] },
): SocialProviderClient {
  let configuration: Promise<oidc.Configuration> | null = null;
  const configure = () => {
    // ID tokens come straight from the token endpoint; checking their signature too costs one cached JWKS fetch.
    const execute = [oidc.enableNonRepudiationChecks, ...(isLocalHttp(settings.issuer) ? [oidc.allowInsecureRequests] : [])];
    configuration ??= oidc
      .discovery(new URL(settings.issuer), settings.clientId, settings.clientSecret, undefined, { execute, timeout: TIMEOUT_SECONDS })
      .catch((error: unknown) => {
        configuration = null; // try discovery again on the next sign-in
        throw error;
      });
    return configuration;
  };

  return {
    responseMode: options.responseMode,
    async authorizationUrl(redirectUri, checks) {
      return oidc.buildAuthorizationUrl(await configure(), {
        ...(await pkceParameters(redirectUri, checks)),
        scope: options.scope,
        nonce: checks.nonce,
        ...(options.responseMode === 'form_post' ? { response_mode: 'form_post' } : {}),
      });
    },
    async profile(callbackUrl, checks) {
      const tokens = await oidc.authorizationCodeGrant(await configure(), callbackUrl, {
        pkceCodeVerifier: checks.codeVerifier,
        expectedState: checks.state,
        expectedNonce: checks.nonce,
      });
      const claims = tokens.claims();
      if (!claims) throw new Error('the provider sent no ID token');
      // Apple sends email_verified as the string "false".
      const unverified = claims.email_verified === false || claims.email_verified === 'false';
      return {
        subject: claims.sub,
        email: unverified ? null : boundedText(claims.email, LIMITS.email.max),
        name: boundedText(claims.name, LIMITS.fullname.max),
      };
    },
  };
}

const graphProfile = z.object({ id: z.string().min(1).max(100), name: z.string().optional(), email: z.string().optional() });

function facebookClient(settings: NonNullable<SocialClients['facebook']>): SocialProviderClient {
  const configuration = new oidc.Configuration(
    { issuer: new URL(settings.authUrl).origin, authorization_endpoint: settings.authUrl, token_endpoint: settings.tokenUrl },
    settings.clientId,
    settings.clientSecret,
  );
  configuration.timeout = TIMEOUT_SECONDS;
  if (isLocalHttp(settings.tokenUrl)) oidc.allowInsecureRequests(configuration);

  return {
    responseMode: 'query',
    async authorizationUrl(redirectUri, checks) {
      return oidc.buildAuthorizationUrl(configuration, { ...(await pkceParameters(redirectUri, checks)), scope: 'email public_profile' });
    },
    async profile(callbackUrl, checks) {
      const tokens = await oidc.authorizationCodeGrant(configuration, callbackUrl, {
        pkceCodeVerifier: checks.codeVerifier,
        expectedState: checks.state,
      });
      const url = new URL(`${settings.graphUrl}/me`);
      url.searchParams.set('fields', 'id,name,email');
      url.searchParams.set('appsecret_proof', createHmac('sha256', settings.clientSecret).update(tokens.access_token).digest('hex'));
      const response = await fetch(url, {
        headers: { authorization: `Bearer ${tokens.access_token}` },
        signal: AbortSignal.timeout(TIMEOUT_SECONDS * 1000),
      });
      if (!response.ok) throw new Error(`Graph API answered ${response.status}`);
      const me = graphProfile.parse(await response.json());
      return { subject: me.id, email: boundedText(me.email, LIMITS.email.max), name: boundedText(me.name, LIMITS.fullname.max) };
    },
  };
}

export function createSocialProviders(clients: SocialClients): SocialProviders {
  return {
    ...(clients.google && { google: openIdClient(clients.google, { scope: 'openid email profile', responseMode: 'query' }) }),
    // Apple knows no "profile" scope, and answers with form_post whenever name or email is asked for.
    ...(clients.apple && { apple: openIdClient(clients.apple, { scope: 'openid email name', responseMode: 'form_post' }) }),
    ...(clients.facebook && { facebook: facebookClient(clients.facebook) }),
  };
}
