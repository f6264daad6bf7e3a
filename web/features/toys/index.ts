/** The public face of toys: Toy access in a stream or a meeting room. Other features import toys only from here. */
export { ToyDeviceAccess } from './ToyDeviceAccess';
/** The same, fetched on demand: a stream page's viewers mostly never use a toy, so its code comes after the page's. */
export const loadToyDeviceAccess = () => import('./ToyDeviceAccess');
