import { useEffect, useId, useRef, useState } from 'react';
import type { StreamInfo } from '../../../common/api/streams';
import { fill, MSG } from '../../../common/messages';
import { failureMessage } from '../../api/field-errors';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { StarRatingInput } from '../../ui/StarRatingInput';
import { useSendRating } from './interactions-api';
import styles from './RatingWall.module.css';

/** The spec's star size on the rating wall (part 2 §9). */
const STAR_SIZE = 30;

interface RatingWallProps {
  stream: StreamInfo;
  viewerId: number;
  onWatchAgain: () => void;
  /** Finished without picking stars: the wall goes, nothing is sent. */
  onDismiss: () => void;
}

/** 'Stream ended' over the player: rate it, or watch it again from the start (spec part 1 §2 walls, §4 Video state). */
export function RatingWall({ stream, viewerId, onWatchAgain, onDismiss }: RatingWallProps) {
  const [stars, setStars] = useState<number | null>(null);
  const rate = useSendRating(stream.stream_id);
  const titleId = useId();
  const title = useRef<HTMLHeadingElement | null>(null);
  useEffect(() => {
    // Land keyboard and reader users on the wall when they were on the player (or nowhere), never
    // when they are typing in the chat.
    const active = document.activeElement;
    const player = title.current?.parentElement?.parentElement;
    if (!active || active === document.body || player?.contains(active)) title.current?.focus();
  }, []);
  const finish = () => (stars === null ? onDismiss() : rate.mutate({ userId: viewerId, rating: stars }));
  return (
    <section className={styles.wall} aria-labelledby={titleId}>
      <h2 id={titleId} ref={title} tabIndex={-1} className={styles.title}>
        {MSG.streamEndedTitle}
      </h2>
      <p className={styles.lead}>Thanks for watching! How was {stream.username}&rsquo;s stream?</p>
      <StarRatingInput value={stars} onChange={setStars} label="Rate this stream" size={STAR_SIZE} disabled={rate.isPending} />
      {rate.isError && <Alert>{fill(MSG.ratingFailed, { message: failureMessage(rate.error) })}</Alert>}
      <div className={styles.actions}>
        <Button variant="secondary" onClick={onWatchAgain} disabled={rate.isPending}>
          Watch Again
        </Button>
        <Button onClick={finish} loading={rate.isPending}>
          Finished
        </Button>
      </div>
    </section>
  );
}
