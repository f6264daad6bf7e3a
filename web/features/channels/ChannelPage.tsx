import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { MSG } from '../../../common/messages';
import { useSkin, useSkinPath, withSkinPrefix } from '../../app/skin';
import { failureMessage } from '../../api/field-errors';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { Modal } from '../../ui/Modal';
import { Page } from '../../ui/Page';
import { Tabs } from '../../ui/Tabs';
import { useSession } from '../accounts';
import { ChannelPosts } from '../posts';
import { useChannelStreams, StreamGrid } from '../streams';
import { useBaseGroup } from '../system';
import { hasAdultAgreement, saveAdultAgreement, useAgreeAdult } from './adult-agreement';
import styles from './ChannelPage.module.css';

type View = 'stream' | 'post';

/**
 * /channel/group, /channel/channel?id=, /channel/custom?id=&metaType= (spec part 1 §2 Channels): the channel's
 * streams, and its image tiles under Images (`&type=post`, as on a profile).
 */
export function ChannelPage() {
  const [query, setQuery] = useSearchParams();
  const session = useSession();
  const skin = useSkin();
  const channels = useBaseGroup(session.user?.user_id ?? null);
  const requested = Number(query.get('id'));
  const selected = channels.data?.find((c) => c.id === requested) ?? (query.get('id') ? undefined : channels.data?.[0]);
  // A custom channel's address carries its rating (metaType): an 18+ one asks before the channel list has loaded.
  const rating = selected ? selected.meta.rating : query.get('metaType');
  const adult = rating === 'PLUS_18' && skin.flags.adultContent;
  const [agreedHere, setAgreedHere] = useState(() => hasAdultAgreement());
  // Confirmed in this browser, or on the account from any browser.
  const agreed = agreedHere || session.user?.adult_agreed === true;
  const agree = useAgreeAdult();
  const confirmAdult = () => {
    const done = () => {
      saveAdultAgreement();
      setAgreedHere(true);
    };
    if (session.isLoggedIn) agree.mutate(undefined, { onSuccess: done });
    else done();
  };
  const open = selected && (!adult || agreed) ? selected.id : 0;
  const streams = useChannelStreams(open);
  const view: View = query.get('type') === 'post' ? 'post' : 'stream';
  const setView = (next: View) =>
    setQuery(
      (q) => {
        if (next === 'post') q.set('type', next);
        else q.delete('type');
        return q;
      },
      { replace: true },
    );

  return (
    <Page title={selected?.name ?? 'Channels'}>
      <nav aria-label="Channels" className={styles.selector}>
        {channels.data?.map((c) => (
          <Link key={c.id} to={withSkinPrefix(skin, c.link)} aria-current={c.id === selected?.id ? 'page' : undefined} className={styles.chip}>
            {c.name}
          </Link>
        ))}
      </nav>
      {adult && !agreed ? (
        <AdultConfirm onConfirm={confirmAdult} pending={agree.isPending} error={agree.error ? failureMessage(agree.error) : null} />
      ) : channels.isSuccess && !selected ? (
        <p className={styles.missing}>{MSG.noStreamsInChannel}</p>
      ) : (
        <Tabs
          label="Channel content"
          value={view}
          onValueChange={setView}
          tabs={[
            { value: 'stream', label: 'Streams', content: <StreamGrid query={streams} label="Streams" empty={requested ? MSG.noStreamsInChannel : MSG.noStreamsFound} /> },
            { value: 'post', label: 'Images', content: <ChannelPosts channelId={open} /> },
          ]}
        />
      )}
    </Page>
  );
}

function AdultConfirm({ onConfirm, pending, error }: { onConfirm: () => void; pending: boolean; error: string | null }) {
  const navigate = useNavigate();
  const skinPath = useSkinPath();
  return (
    <Modal
      open
      blocking
      size="sm"
      title="Adults only"
      description="This channel shows content for adults. Confirm that you are at least 18 years old to continue."
      footer={
        <>
          <Button variant="secondary" onClick={() => void navigate(skinPath('/channel/group'))}>
            Decline
          </Button>
          <Button onClick={onConfirm} loading={pending} disabled={error !== null}>
            I am 18 or older
          </Button>
        </>
      }
    >
      <Alert>{error}</Alert>
    </Modal>
  );
}
