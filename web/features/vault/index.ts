/**
 * The public face of the vault (decision 0088): the picker that posts and messages choose media with
 * (fetched the first time it opens). The page is reached by its file from the routes.
 */
export { VaultPicker } from './loaders';
