import { useState } from 'react';
import type { MouseEvent, ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { SIDEBAR_VISIBLE_EXTRA_ITEMS, SIDEBAR_VISIBLE_FOLLOWED } from '../../../common/constants';
import { stripSkinPrefix } from '../../../common/skins';
import { useSkin, useSkinPath, useSkinlessPath, withSkinPrefix } from '../../app/skin';
import { Avatar } from '../../ui/Avatar';
import { HashIcon, LinkIcon } from '../../ui/icons';
import { useSession } from '../accounts';
import { useBaseGroup } from '../system';
import { useFollowedChannels } from './followed-channels';
import { activeSection } from './nav-active';
import { SIDEBAR, entriesFor } from './nav-entries';
import styles from './Sidebar.module.css';
import type { SidebarState } from './sidebar-state';

export function Sidebar({ state }: { state: SidebarState }) {
  const skin = useSkin();
  const skinPath = useSkinPath();
  const { user } = useSession();
  const path = useSkinlessPath();
  const section = activeSection(path, skin.uploadPath);
  const context = { skin, user };
  const [showAll, setShowAll] = useState(false);
  const extras = showAll ? skin.sidebarItems : skin.sidebarItems.slice(0, SIDEBAR_VISIBLE_EXTRA_ITEMS);
  const hasMore = skin.sidebarItems.length > SIDEBAR_VISIBLE_EXTRA_ITEMS;

  // Following a link inside the drawer closes it on narrow screens.
  const onClick = (event: MouseEvent) => {
    if (state.narrow && (event.target as HTMLElement).closest('a')) state.closeDrawer();
  };

  return (
    <>
      {state.narrow && state.visible && (
        <button type="button" className={styles.backdrop} aria-label="Hide side bar" tabIndex={-1} onClick={state.closeDrawer} />
      )}
      <aside
        id="app-sidebar"
        className={[styles.sidebar, state.visible ? styles.open : styles.closed, state.narrow && styles.drawer].filter(Boolean).join(' ')}
        aria-label="Side bar"
        hidden={!state.visible}
        onClick={onClick}
      >
        <nav aria-label="Main" className={styles.section}>
          {entriesFor(SIDEBAR, context).map((entry) => (
            <NavItem key={entry.label} to={skinPath(entry.path(context))} icon={entry.icon} active={!!entry.section && section === entry.section} badge={entry.badge}>
              {entry.label}
            </NavItem>
          ))}
          <ChannelList />
        </nav>

        {user && <FollowedChannels userId={user.user_id} />}

        {skin.sidebarItems.length > 0 && (
          <nav aria-label="More" className={styles.section}>
            {extras.map((item) => (
              <NavItem key={item.href} to={withSkinPrefix(skin, item.href)} icon={<LinkIcon size={18} />} active={false}>
                {item.label}
              </NavItem>
            ))}
            {hasMore && (
              <button type="button" className={styles.more} aria-expanded={showAll} onClick={() => setShowAll((v) => !v)}>
                {showAll ? 'See Less' : 'See More'}
              </button>
            )}
          </nav>
        )}

        <footer className={styles.footer}>
          <nav aria-label="Legal" className={styles.legal}>
            <Link to={skin.links.terms}>Terms of Service</Link>
            <Link to={skin.links.privacy}>Privacy Policy</Link>
          </nav>
          <p className={styles.copyright}>© 2026 {skin.copyright}</p>
        </footer>
      </aside>
    </>
  );
}

function NavItem({ to, icon, active, badge, children }: { to: string; icon: ReactNode; active: boolean; badge?: ReactNode; children: ReactNode }) {
  return (
    <Link to={to} className={`${styles.item} ${active ? styles.active : ''}`} aria-current={active ? 'page' : undefined}>
      {icon}
      <span>{children}</span>
      {badge}
    </Link>
  );
}

function ChannelList() {
  const skin = useSkin();
  const location = useLocation();
  const { user } = useSession();
  const channels = useBaseGroup(user?.user_id ?? null);
  const here = stripSkinPrefix(location.pathname) + location.search;
  if (!channels.data?.length) return null;
  return (
    <ul className={styles.channels} aria-label="Channels">
      {channels.data.map((channel) => {
        const to = withSkinPrefix(skin, channel.link);
        const current = stripSkinPrefix(to) === here;
        return (
          <li key={channel.id}>
            <Link to={to} className={`${styles.channel} ${current ? styles.active : ''}`} aria-current={current ? 'page' : undefined}>
              <HashIcon size={16} />
              <span>{channel.name}</span>
              {channel.meta.rating === 'PLUS_18' && <span className={styles.rating}>18+</span>}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

/** Whom the signed-in user follows, live ones first: a live one opens the stream, the others their profile. */
function FollowedChannels({ userId }: { userId: number }) {
  const skinPath = useSkinPath();
  const followed = useFollowedChannels(userId);
  const [showAll, setShowAll] = useState(false);
  const all = followed.data ?? [];
  const shown = showAll ? all : all.slice(0, SIDEBAR_VISIBLE_FOLLOWED);
  return (
    <nav aria-label="Followed channels" className={styles.section}>
      <h2 className={styles.heading}>Followed channels</h2>
      {followed.isPending && (
        <ul className={styles.followed} aria-busy="true" aria-label="Loading followed channels">
          {Array.from({ length: 3 }, (_, i) => <li key={i} className={styles.skeleton} />)}
        </ul>
      )}
      {followed.isSuccess && all.length === 0 && <p className={styles.hint}>Channels you follow show here.</p>}
      {shown.length > 0 && (
        <ul className={styles.followed}>
          {shown.map(({ user, liveStreamId }) => (
            <li key={user.user_id}>
              <Link
                to={skinPath(liveStreamId === null ? `/u/${user.user_id}` : `/streams/stream-view?id=${liveStreamId}`)}
                className={styles.channel}
                aria-label={liveStreamId === null ? user.username : `${user.username}, live now`}
              >
                <Avatar name={user.username} src={user.avatar} size={24} />
                <span className={styles.name}>{user.username}</span>
                {liveStreamId !== null && <span className={styles.live} aria-hidden="true" />}
              </Link>
            </li>
          ))}
        </ul>
      )}
      {all.length > SIDEBAR_VISIBLE_FOLLOWED && (
        <button type="button" className={styles.more} aria-expanded={showAll} onClick={() => setShowAll((v) => !v)}>
          {showAll ? 'Show less' : 'Show more'}
        </button>
      )}
    </nav>
  );
}
