/** Every call of the wire contract, by domain. */
export * as accounts from './accounts';
export * as mail from './mail';
export * as meetings from './meetings';
export * as posts from './posts';
export * as recovery from './recovery';
export * as settings from './settings';
export * as social from './social';
export * as socialLogin from './social-login';
export * as streamInteractions from './stream-interactions';
export * as streams from './streams';
export * as subscriptions from './subscriptions';
export * as system from './system';
export * as tips from './tips';
export * as toys from './toys';
export * as tracking from './tracking';
export * as translation from './translate';
export * as wallet from './wallet';
export * from './define';
