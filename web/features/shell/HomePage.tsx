import { Link } from 'react-router';
import type { StreamTile } from '../../../common/api/streams';
import { MSG } from '../../../common/messages';
import { SkinLink, useSkin, withSkinPrefix } from '../../app/skin';
import { EmptyState } from '../../ui/EmptyState';
import { VideoCallIcon } from '../../ui/icons';
import { useSession } from '../accounts';
import { ChannelCard, ChannelCardSkeleton, FeaturedStream, FeaturedStreamSkeleton } from '../channels';
import { PostTileCard, useChannelPosts } from '../posts';
import { StreamTileCard, StreamTileSkeleton, useAllStreams } from '../streams';
import grid from '../../ui/TileGrid.module.css';
import { useBaseGroup } from '../system';
import styles from './HomePage.module.css';

/** The spec shows at most 8 channel tiles on the home page, in rows of 3. */
const HOME_CHANNELS = 8;
/** Streams shown under the featured one before "See all". */
const HOME_STREAMS = 6;

/** Home: a one-line welcome for guests, then what is live (a featured stream, then more), then the channels. */
export function HomePage() {
  const session = useSession();
  const streams = useAllStreams();
  const list = streams.data?.pages[0]?.streams;
  const featured = list?.[0]?.live === 'Y' ? list[0] : undefined;
  const more = (featured ? list?.slice(1) : list)?.slice(0, HOME_STREAMS);

  return (
    <div className={styles.page}>
      {session.isLoggedIn ? <SignedInHeading /> : <Welcome />}

      {streams.isPending && <FeaturedStreamSkeleton />}
      {featured && <FeaturedStream stream={featured} />}

      {(streams.isPending || streams.isError || list?.length === 0 || !!more?.length) && (
        <section aria-labelledby="live-title">
          <div className={styles.heading}>
            <h2 id="live-title">{featured ? 'More live and recent' : 'Streams'}</h2>
            <SkinLink to="/channel/group" className={styles.all}>
              See all
            </SkinLink>
          </div>
          {streams.isError && <p role="alert">Streams could not be loaded. Please try again in a moment.</p>}
          {list?.length === 0 && <EmptyState icon={<VideoCallIcon />}>{MSG.noStreamsFound}</EmptyState>}
          <StreamRow pending={streams.isPending} streams={more ?? []} />
        </section>
      )}

      <LatestPhotos />
      <Channels />
    </div>
  );
}

/** The newest public posts (the Discover channel's image tiles), one row; nothing when there are none. */
function LatestPhotos() {
  const skin = useSkin();
  const session = useSession();
  const discover = useBaseGroup(session.user?.user_id ?? null).data?.find((channel) => channel.name === 'Discover');
  const posts = useChannelPosts(discover?.id ?? 0).data?.pages[0]?.posts.slice(0, HOME_STREAMS) ?? [];
  if (!discover || posts.length === 0) return null;
  return (
    <section aria-labelledby="photos-title">
      <div className={styles.heading}>
        <h2 id="photos-title">Latest photos</h2>
        <Link to={`${withSkinPrefix(skin, discover.link)}${discover.link.includes('?') ? '&' : '?'}type=post`} className={styles.all}>
          See all
        </Link>
      </div>
      <ul className={grid.row} aria-label="Latest photos">
        {posts.map((post) => (
          <li key={post.post_id}>
            <PostTileCard post={post} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function StreamRow({ pending, streams }: { pending: boolean; streams: StreamTile[] }) {
  if (!pending && streams.length === 0) return null;
  return (
    <ul className={grid.row} aria-label="Live now" aria-busy={pending}>
      {pending && Array.from({ length: 3 }, (_, i) => <li key={i}><StreamTileSkeleton /></li>)}
      {streams.map((s) => (
        <li key={s.stream_id}>
          <StreamTileCard stream={s} />
        </li>
      ))}
    </ul>
  );
}

/** A guest's short welcome: the brand only (Sign up and Log In are in the top bar), so the streams stay on the first screen. */
function Welcome() {
  const skin = useSkin();
  return (
    <section className={styles.welcome} aria-labelledby="home-title">
      <h1 id="home-title" className={styles.title}>
        {skin.name}
      </h1>
      <p className={styles.tagline}>{skin.tagline}</p>
    </section>
  );
}

/** Signed in, the page goes straight to the streams. */
function SignedInHeading() {
  const skin = useSkin();
  return (
    <h1 id="home-title" className="visually-hidden">
      {skin.name}
    </h1>
  );
}

function Channels() {
  const skin = useSkin();
  const session = useSession();
  const channels = useBaseGroup(session.user?.user_id ?? null);
  return (
    <section aria-labelledby="channels-title">
      <div className={styles.heading}>
        <h2 id="channels-title">Channels</h2>
        <SkinLink to="/channel/group" className={styles.all}>
          See all
        </SkinLink>
      </div>
      {channels.isError && <p role="alert">Channels could not be loaded. Please try again in a moment.</p>}
      <div className={styles.grid} aria-busy={channels.isPending}>
        {channels.isPending && Array.from({ length: 6 }, (_, i) => <ChannelCardSkeleton key={i} />)}
        {channels.data?.slice(0, HOME_CHANNELS).map((channel) => (
          <ChannelCard key={channel.id} to={withSkinPrefix(skin, channel.link)} name={channel.name} thumbnail={channel.thumbnail} adult={channel.meta.rating === 'PLUS_18'} />
        ))}
      </div>
      {channels.data?.length === 0 && <p className={styles.empty}>No channels yet.</p>}
    </section>
  );
}
