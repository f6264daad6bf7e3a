/** The public face of channels: The channel cards and the featured stream the home page shows. Other features import channels only from here. */
export { ChannelCard, ChannelCardSkeleton } from './ChannelCard';
export { FeaturedStream, FeaturedStreamSkeleton } from './FeaturedStream';
