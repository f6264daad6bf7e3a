import type { StreamTile } from '../../../common/api/streams';
import { relativeTime, shortNumber } from '../../../common/rules/format';
import { useSkinPath } from '../../app/skin';
import { Avatar } from '../../ui/Avatar';
import { HeartIcon, UsersIcon } from '../../ui/icons';
import { Tile, TileCard, TileChip, TileSkeleton } from '../../ui/Tile';
import { shownLikes, shownTitle, shownViewers } from '../../../common/rules/stream-display';

const RATING_CHIP = { G: null, PLUS_14: '14+', PLUS_18: '18+' } as const;
const AUDIENCE_CHIP = { PUBLIC: null, FOLLOWERS: 'Followers', SUBSCRIBERS: 'Subscribers', PRIVATE: 'Private' } as const;

/** A stream in a listing (spec part 1 §3 Stream tile). */
export function StreamTileCard({ stream }: { stream: StreamTile }) {
  const skinPath = useSkinPath();
  const live = stream.live === 'Y';
  const likes = shownLikes(stream);
  const chips = [RATING_CHIP[stream.rating], AUDIENCE_CHIP[stream.audience], stream.tip_viewer_min_amount > 0 ? 'Paid' : null].filter(Boolean);
  return (
    <TileCard label={shownTitle(stream.title)}>
      <Tile
        to={skinPath(`/streams/stream-view?id=${stream.stream_id}`)}
        title={shownTitle(stream.title)}
        thumbnail={stream.thumbnail_url}
        badge={live ? 'LIVE' : undefined}
        leading={<Avatar name={stream.username} src={stream.avatar} size={32} />}
        meta={stream.username}
        overlay={
          <>
            {chips.map((chip) => (
              <TileChip key={chip}>
                {chip}
              </TileChip>
            ))}
            {!live && stream.started_time && <TileChip>{relativeTime(stream.started_time)}</TileChip>}
            <TileChip aria-label={`${shortNumber(likes)} likes`}>
              <HeartIcon size={12} /> {shortNumber(likes)}
            </TileChip>
            {live && (
              <TileChip aria-label={`${shownViewers(stream.viewers)} viewers`}>
                <UsersIcon size={12} /> {shortNumber(shownViewers(stream.viewers))}
              </TileChip>
            )}
          </>
        }
      />
    </TileCard>
  );
}

export { TileSkeleton as StreamTileSkeleton };
