/** The public face of toys: Toy access in a stream or a meeting room. Other features import toys only from here. */
export { ToyDeviceAccess } from './ToyDeviceAccess';
export { loadToyDeviceAccess } from './loaders';
