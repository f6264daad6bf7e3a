/** Every call of the wire contract, by domain. */
export * as accounts from './accounts';
export * as system from './system';
export * from './define';
