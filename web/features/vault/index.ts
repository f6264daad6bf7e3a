/**
 * The public face of the vault (decision 0088): the picker that posts and messages choose media with.
 * The page is reached by its file from the routes.
 */
export { VaultPicker } from './VaultPicker';
export { vaultKeys } from './api';
