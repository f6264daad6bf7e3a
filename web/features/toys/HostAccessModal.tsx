/**
 * The broadcaster's device-access modal (spec part 2 §2 screen 12, §4): 'Lovense Device Access' to
 * choose a viewer and a tip and Generate QR; the waiting view while the viewer decides; 'Manage Viewer
 * Access' once approved (the QR, Request Tip, the viewer's status, Revoke Access).
 */
import { useState, type ReactNode } from 'react';
import type { ToyAccessRecord } from '../../../common/api/toys';
import { TOY } from '../../../common/constants';
import { MSG } from '../../../common/messages';
import type { MeetingParticipant } from '../../../common/realtime';
import { deviceTip } from '../../../common/rules/toys';
import { isApiError, type ApiError } from '../../api/client';
import { Alert } from '../../ui/Alert';
import { Avatar } from '../../ui/Avatar';
import { Button } from '../../ui/Button';
import { Modal } from '../../ui/Modal';
import { useToast } from '../../ui/Toast';
import { formatCoins } from '../../../common/rules/wallet-amounts';
import { useLovenseAction, useToyDevice } from './api';
import { TipSlider } from './TipSlider';
import { hostView, type ToyPlace } from './toy-rules';
import { MeetingViewerPicker, StreamViewerPicker, type ToyViewer } from './ViewerPicker';
import styles from './toys.module.css';

interface HostAccessModalProps {
  open: boolean;
  onClose: () => void;
  place: ToyPlace;
  myId: number;
  record: ToyAccessRecord | null;
  /** The meeting's participants (a meeting room); a stream's viewers are searched instead. */
  people: readonly MeetingParticipant[] | undefined;
}

export function HostAccessModal({ open, onClose, place, myId, record, people }: HostAccessModalProps) {
  const action = useLovenseAction(place, myId);
  const toast = useToast();
  const view = hostView(record);
  // A refusal the spec has no line for (409, 404…) says why; anything else gets the spec's failure line.
  const failed = (fallback: string) => (error: ApiError) =>
    toast({ title: fallback, ...(isApiError(error) && error.status >= 400 && error.status < 500 ? { description: error.message } : {}), tone: 'error' });

  const revoke = (viewerId: number) =>
    action.mutate(
      { action: { event: 'REVOKE_ACCESS', viewer_id: viewerId } },
      { onSuccess: (answer) => toast({ title: answer.message ?? MSG.toyAccessRevoked, tone: 'success' }), onError: failed(MSG.toyRevokeFailed) },
    );
  const regenerate = (viewerId: number) => action.mutate({ action: { event: 'REGENERATE_QR_CODE', viewer_id: viewerId } }, { onError: failed(MSG.toyQrFailed) });

  let body: ReactNode;
  if (view === 'choose' || !record) {
    body = (
      <ChooseViewer
        streamId={place.stream_id}
        people={people}
        busy={action.isPending}
        onClose={onClose}
        onGenerate={(viewer, tip) => action.mutate({ action: { event: 'GET_QR_CODE', viewer_id: viewer.id, tip_amount: tip } }, { onError: failed(MSG.toyQrFailed) })}
      />
    );
  } else {
    const actions = (
      <>
        <Button variant="secondary" onClick={onClose}>
          Close
        </Button>
        <Button variant="secondary" loading={action.isPending && action.variables.action.event === 'REGENERATE_QR_CODE'} onClick={() => regenerate(record.viewer_id)}>
          Regenerate QR
        </Button>
        <Button variant="danger" loading={action.isPending && action.variables.action.event === 'REVOKE_ACCESS'} onClick={() => revoke(record.viewer_id)}>
          Revoke Access
        </Button>
      </>
    );
    body =
      view === 'waiting' ? (
        <AccessLayout record={record} footer={actions}>
          <p role="status">{MSG.toyWaitingForViewer}</p>
          <QrCode record={record} />
        </AccessLayout>
      ) : (
        <AccessLayout record={record} footer={actions}>
          <ManageAccess
            record={record}
            sending={action.isPending && action.variables.action.event === 'PAID_TIP_REQUEST'}
            onRequestTip={(tip) =>
              action.mutate(
                { action: { event: 'PAID_TIP_REQUEST', viewer_id: record.viewer_id, tip_amount: tip } },
                { onSuccess: (answer) => toast({ title: answer.message ?? MSG.toyTipRequestSent, tone: 'success' }), onError: failed(MSG.toyTipRequestFailed) },
              )
            }
          />
        </AccessLayout>
      );
  }

  return (
    <Modal open={open} onOpenChange={(next) => !next && onClose()} title={view === 'manage' ? MSG.toyManageTitle : MSG.toyAccessTitle}>
      {body}
    </Modal>
  );
}

function ChooseViewer({ streamId, people, busy, onClose, onGenerate }: {
  streamId: number;
  people: readonly MeetingParticipant[] | undefined;
  busy: boolean;
  onClose: () => void;
  onGenerate: (viewer: ToyViewer, tip: number) => void;
}) {
  const [tip, setTip] = useState<number>(TOY.tip.default);
  const [viewer, setViewer] = useState<ToyViewer | null>(null);
  const picker = people
    ? <MeetingViewerPicker people={people} selected={viewer?.id ?? null} onSelect={setViewer} />
    : <StreamViewerPicker streamId={streamId} selected={viewer?.id ?? null} onSelect={setViewer} />;
  return (
    <div className={styles.slider}>
      <TipSlider label="Device tip" value={tip} onChange={(value) => setTip(deviceTip(value))} />
      {picker}
      <div className={styles.row}>
        <Button variant="secondary" onClick={onClose}>
          Close
        </Button>
        <Button disabled={!viewer} loading={busy} onClick={() => viewer && onGenerate(viewer, deviceTip(tip))}>
          Generate QR
        </Button>
      </div>
    </div>
  );
}

/** The viewer the access is for, what they pay, and the actions. */
function AccessLayout({ record, footer, children }: { record: ToyAccessRecord; footer: ReactNode; children: ReactNode }) {
  return (
    <div className={styles.slider}>
      <div className={styles.row}>
        <Avatar name={record.viewer.sname} src={record.viewer.avatar} size={36} />
        <div>
          <strong>{record.viewer.sname}</strong>
          <div className={styles.muted}>
            Tip {formatCoins(record.tip_amount)} · paid {formatCoins(record.paid_total)}
          </div>
        </div>
      </div>
      {children}
      <div className={styles.row}>{footer}</div>
    </div>
  );
}

/** 'Scan QR Code': the picture the host's Lovense app scans (the simulated toy's stands in for it). */
function QrCode({ record }: { record: ToyAccessRecord }) {
  const [shown, setShown] = useState(false);
  // The simulated provider has no app to scan with: it says so rather than borrow Lovense's words.
  const simulated = useToyDevice(true).data?.provider === 'simulated';
  if (!record.qr_data) return null;
  if (!shown)
    return (
      <Button variant="secondary" onClick={() => setShown(true)}>
        {simulated ? 'Show access code' : 'Scan QR Code'}
      </Button>
    );
  return (
    <figure className={styles.qr}>
      <img src={record.qr_data.qr} alt={`QR code ${record.qr_data.code}`} />
      <figcaption className={styles.muted}>
        {simulated ? `Virtual toy: no app to scan, this code stands in for a real device's QR · ${record.qr_data.code}` : `Scan with the Lovense Remote app · ${record.qr_data.code}`}
      </figcaption>
    </figure>
  );
}

function ManageAccess({ record, sending, onRequestTip }: { record: ToyAccessRecord; sending: boolean; onRequestTip: (tip: number) => void }) {
  const [tip, setTip] = useState<number>(TOY.tip.default);
  const connected = record.app_connection_status === 'connected';
  return (
    <>
      <p>
        Status:{' '}
        <span className={`${styles.status} ${connected ? styles.connected : styles.disconnected}`}>{connected ? 'Connected' : 'Disconnected'}</span>
      </p>
      {record.broadcaster_state === 'SHOW_TOY_ADD_PENDING' && <Alert tone="info">{MSG.toyAddDevices}</Alert>}
      <QrCode record={record} />
      {record.broadcaster_state === 'SHOW_TIP_PENDING' ? (
        <p role="status">
          {MSG.toyWaitingForViewer} ({formatCoins(record.requested_tip)})
        </p>
      ) : (
        <div className={styles.slider}>
          <TipSlider label="Request Tip" value={tip} onChange={(value) => setTip(deviceTip(value))} />
          <Button variant="secondary" loading={sending} onClick={() => onRequestTip(deviceTip(tip))}>
            Send Tip Request
          </Button>
        </div>
      )}
    </>
  );
}
