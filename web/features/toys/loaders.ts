/** Toy access fetched on demand: a stream page's viewers mostly never use a toy, so its code comes after the page's. */
export const loadToyDeviceAccess = () => import('./ToyDeviceAccess');
