import { Link } from 'react-router';
import { useSkin, useSkinPath, withSkinPrefix } from '../../app/skin';
import { ButtonLink } from '../../ui/Button';
import { Tile, TileSkeleton } from '../../ui/Tile';
import { useSession } from '../accounts/api';
import { LiveNowRow } from '../streams/LiveNowRow';
import { useBaseGroup } from '../system/api';
import styles from './HomePage.module.css';

/** The spec shows at most 8 channel tiles on the home page, in rows of 3. */
const HOME_CHANNELS = 8;
const RATING_LABEL = { G: 'All ages', PLUS_14: '14+', PLUS_18: '18+' } as const;

export function HomePage() {
  const skin = useSkin();
  const skinPath = useSkinPath();
  const session = useSession();
  const channels = useBaseGroup(session.user?.user_id ?? null);

  return (
    <div className={styles.page}>
      <section className={styles.hero} aria-labelledby="hero-title">
        <p className={styles.kicker}>Now streaming on</p>
        <h1 id="hero-title" className={styles.title}>
          {skin.name}
        </h1>
        <p className={styles.tagline}>{skin.tagline}</p>
        <div className={styles.actions}>
          <ButtonLink to={skinPath('/channel/group')} size="lg">
            Start watching
          </ButtonLink>
          {!session.isPending && !session.isLoggedIn && (
            <ButtonLink to={skinPath('/user/sign-up')} size="lg" variant="secondary">
              Sign up for Free
            </ButtonLink>
          )}
          {session.isLoggedIn && (
            <ButtonLink to={skinPath('/dashboard')} size="lg" variant="secondary">
              Go Live
            </ButtonLink>
          )}
        </div>
      </section>

      <section aria-labelledby="live-title" className={styles.channels}>
        <div className={styles.heading}>
          <h2 id="live-title">Live now</h2>
          <Link to={skinPath('/channel/group')} className={styles.all}>
            See all
          </Link>
        </div>
        <LiveNowRow />
      </section>

      <section aria-labelledby="channels-title" className={styles.channels}>
        <div className={styles.heading}>
          <h2 id="channels-title">Channels</h2>
          <Link to={skinPath('/channel/group')} className={styles.all}>
            See all
          </Link>
        </div>
        {channels.isError && <p role="alert">Channels could not be loaded. Please try again in a moment.</p>}
        <div className={styles.grid} aria-busy={channels.isPending}>
          {channels.isPending && Array.from({ length: 6 }, (_, i) => <TileSkeleton key={i} />)}
          {channels.data?.slice(0, HOME_CHANNELS).map((channel) => (
            <Tile
              key={channel.id}
              to={withSkinPrefix(skin, channel.link)}
              title={channel.name}
              thumbnail={channel.thumbnail}
              meta={RATING_LABEL[channel.meta.rating]}
              badge={channel.meta.rating === 'PLUS_18' ? '18+' : undefined}
            />
          ))}
        </div>
        {channels.data?.length === 0 && <p className={styles.empty}>No channels yet.</p>}
      </section>
    </div>
  );
}
