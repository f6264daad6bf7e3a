/** Upload progress (spec part 1 §2 Upload): overall and per file, percentage and time left, Pause and Resume. */
import { Button } from '../ui/Button';
import { PauseIcon, PlayIcon } from '../ui/icons';
import { ProgressBar } from '../ui/ProgressBar';
import { formatBytes } from './files';
import { formatTimeLeft, percentOf, secondsLeft } from './upload-progress';
import type { QueuedFile, UploadQueue } from './use-upload-queue';
import styles from './UploadProgress.module.css';

const FILE_STATE: Record<QueuedFile['state'], string> = { waiting: 'Waiting', uploading: 'Uploading', done: 'Uploaded', failed: 'Failed' };

/** `className` places the block in its form's layout. */
export function UploadProgress({ queue, className }: { queue: UploadQueue; className?: string }) {
  const { overall, files, paused, stalled, running } = queue;
  const current = files.findIndex((f) => f.state === 'uploading');
  const status = stalled
    ? 'Connection lost: the upload goes on when you are back online.'
    : paused
      ? 'Paused'
      : running
        ? formatTimeLeft(overall.secondsLeft)
        : overall.percent === 100
          ? 'All files uploaded'
          : '';
  const which = files.length > 1 && current >= 0 ? `File ${current + 1} of ${files.length}` : '';
  const detail = [which, status].filter(Boolean).join(' · ');
  return (
    <section className={[styles.progress, className].filter(Boolean).join(' ')} aria-label="Upload progress">
      <div className={styles.progressHead}>
        <ProgressBar label="Upload progress" value={overall.percent} detail={detail} valueText={[`${overall.percent}%`, which, status].filter(Boolean).join(', ')} />
        {running && (
          <div>
            {paused || stalled ? (
              <Button size="sm" icon={<PlayIcon size={16} />} onClick={queue.resume}>
                Resume
              </Button>
            ) : (
              <Button size="sm" variant="secondary" icon={<PauseIcon size={16} />} onClick={queue.pause}>
                Pause
              </Button>
            )}
          </div>
        )}
      </div>
      {/* State changes are announced; the ticking time left is not. */}
      <p className="visually-hidden" aria-live="polite">
        {stalled || paused ? status : ''}
      </p>
      {files.length > 0 && (
        <ul className={styles.fileList} aria-label="Files">
          {files.map((f, index) => {
            const percent = percentOf(f.sent, f.file.size);
            const left = f.state === 'uploading' && !paused && !stalled ? formatTimeLeft(secondsLeft(f.file.size - f.sent, f.throughput)) : FILE_STATE[f.state];
            return (
              <li key={index}>
                <ProgressBar size="sm" label={f.file.name} value={percent} detail={`${formatBytes(f.file.size)} · ${left}`} valueText={`${percent}%, ${left}`} />
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
