/**
 * The pre-roll over the player's place (spec part 1 §4 Video state, Ads): the offer's MP4 plays muted
 * (so autoplay is allowed) with the Sponsored badge, "Skip in N" and then Skip Ad (counted on the clock
 * while the ad is on screen, so a video that stalls can still be skipped); the video is a link to the
 * advertiser (new tab). Impression when it starts, completion when it ends; the end, a skip or
 * any failure hands the place to the stream.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import type { StreamInfo } from '../../../common/api/streams';
import { fill, MSG } from '../../../common/messages';
import { Spinner } from '../../ui/Spinner';
import { VolumeIcon, VolumeOffIcon } from '../../ui/icons';
import { creativeSize, skipSecondsLeft } from './ad-rules';
import { useAdActivity } from './use-ad-activity';
import type { PrerollOffer } from './use-preroll-ad';
import { usePrerollAd } from './use-preroll-ad';
import styles from './ads.module.css';

const SECOND_MS = 1000;

interface PrerollGateProps {
  stream: Pick<StreamInfo, 'stream_id' | 'user_id' | 'campaign_id' | 'no_ads' | 'has_offers'>;
  /** The viewer chose Watch Again: no pre-roll. */
  replaying: boolean;
  /** The player: mounted only once the pre-roll is over, so the stream neither starts nor changes state under it. */
  children: ReactNode;
}

export function PrerollGate({ stream, replaying, children }: PrerollGateProps) {
  const preroll = usePrerollAd(stream, replaying);
  if (preroll.phase === 'done') return children;
  if (preroll.phase === 'playing') return <PrerollAd offer={preroll.offer} onFinish={preroll.finish} />;
  return (
    <div className={styles.prerollBox}>
      <Spinner size="lg" label="Loading video" />
    </div>
  );
}

function PrerollAd({ offer, onFinish }: { offer: PrerollOffer; onFinish: () => void }) {
  const record = useAdActivity();
  const [shownSeconds, setShownSeconds] = useState(0);
  const [muted, setMuted] = useState(true);
  const started = useRef(false);
  const video = useRef<HTMLVideoElement | null>(null);
  const secondsLeft = skipSecondsLeft(offer.skip_after_seconds, shownSeconds);
  const size = creativeSize(offer.dim_x, offer.dim_y);

  const onPlaying = () => {
    if (started.current) return;
    started.current = true;
    record(offer, 'impression');
  };
  const onEnded = () => {
    record(offer, 'complete');
    onFinish();
  };
  const counting = secondsLeft > 0;
  useEffect(() => {
    if (!counting) return;
    const timer = setInterval(() => setShownSeconds((s) => s + 1), SECOND_MS);
    return () => clearInterval(timer);
  }, [counting]);
  const toggleSound = () => {
    const element = video.current;
    if (!element) return;
    element.muted = !element.muted;
    setMuted(element.muted);
  };
  // Muted before it may start: browsers let muted video play by itself. A refused start is a failed ad.
  const attach = useCallback(
    (element: HTMLVideoElement | null) => {
      video.current = element;
      if (!element) return;
      element.muted = true;
      element.play().catch(onFinish);
    },
    [onFinish],
  );

  return (
    <section className={styles.prerollBox} style={size && { aspectRatio: `${size.width} / ${size.height}` }} aria-label="Pre-roll ad">
      <video
        ref={attach}
        className={styles.prerollVideo}
        src={offer.video}
        poster={offer.thumbnail}
        playsInline
        muted
        preload="auto"
        aria-label={`Ad: ${offer.name}`}
        onPlaying={onPlaying}
        onEnded={onEnded}
        onError={onFinish}
      />
      {/* The whole picture leads to the advertiser, as people expect of a video ad. */}
      <a className={styles.prerollLink} href={offer.ad_link} target="_blank" rel="noopener noreferrer" onClick={() => record(offer, 'click')}>
        <span className="visually-hidden">
          {offer.short_description} (opens in a new tab)
        </span>
      </a>
      <span className={styles.prerollBadge}>Ad · {MSG.adsSponsored}</span>
      <button type="button" className={styles.prerollSound} aria-label={muted ? 'Unmute ad' : 'Mute ad'} onClick={toggleSound}>
        {muted ? <VolumeOffIcon size={18} /> : <VolumeIcon size={18} />}
      </button>
      {secondsLeft > 0 ? (
        <span className={styles.prerollSkip} role="timer" aria-live="off">
          {fill(MSG.adsSkipIn, { seconds: secondsLeft })}
        </span>
      ) : (
        <button type="button" className={`${styles.prerollSkip} ${styles.prerollSkipButton}`} onClick={onFinish}>
          {MSG.adsSkipAd}
        </button>
      )}
    </section>
  );
}
