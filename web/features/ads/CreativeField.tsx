/**
 * The offer's creative: an image for a banner or chat offer, a video for a pre-roll. Shows the chosen
 * file (or, when editing, the current creative until a new one is chosen).
 */
import { useFileSource } from '../../uploads/use-file-source';
import type { AdType } from '../../../common/api/ads';
import { Field } from '../../ui/Field';
import { formatBytes, IMAGE_ACCEPT, isImageFile, isVideoFile, VIDEO_ACCEPT } from '../../uploads/files';
import { creativeKind } from './ad-rules';
import styles from './ads.module.css';

interface CreativeFieldProps {
  /** The offer's type; until one is chosen either kind is taken. */
  type: AdType | '';
  file: File | null;
  onFile: (file: File | null) => void;
  /** The creative the offer has now (editing). */
  current?: string | undefined;
  /** A chosen video's running time, once its metadata is read. */
  onDuration?: (seconds: number) => void;
  error?: string | undefined;
  disabled?: boolean;
}

const HINT = 'An image for a banner or chat offer, a .mp4 or .mov video for a pre-roll.';

export function CreativeField({ type, file, onFile, current, onDuration, error, disabled = false }: CreativeFieldProps) {
  const accept = type === '' ? `${IMAGE_ACCEPT},${VIDEO_ACCEPT}` : creativeKind(type) === 'video' ? VIDEO_ACCEPT : IMAGE_ACCEPT;
  return (
    <Field label="Creative" error={error} hint={current ? `${HINT} Choose a file to replace the current one.` : HINT}>
      {({ inputId, describedBy, invalid }) => (
        <div className={styles.creative}>
          {file ? <FilePreview file={file} onDuration={onDuration} /> : current && <img className={styles.creativePreview} src={current} alt="Current creative" />}
          <input
            id={inputId}
            className={styles.fileInput}
            type="file"
            accept={accept}
            disabled={disabled}
            aria-invalid={invalid || undefined}
            aria-describedby={describedBy}
            onChange={(event) => onFile(event.target.files?.[0] ?? null)}
          />
        </div>
      )}
    </Field>
  );
}

/** The chosen file: its picture, or the video to play, and its name and size. */
function FilePreview({ file, onDuration }: { file: File; onDuration?: ((seconds: number) => void) | undefined }) {
  const attach = useFileSource(file);
  return (
    <div className={styles.chosenFile}>
      {isImageFile(file) ? (
        <img ref={attach} className={styles.creativePreview} alt={`Preview of ${file.name}`} />
      ) : (
        isVideoFile(file) && (
          <video
            ref={attach}
            className={styles.creativePreview}
            controls
            muted
            playsInline
            preload="metadata"
            aria-label={`Preview of ${file.name}`}
            onLoadedMetadata={(event) => onDuration?.(event.currentTarget.duration)}
          />
        )
      )}
      <span>
        {file.name} · {formatBytes(file.size)}
      </span>
    </div>
  );
}
