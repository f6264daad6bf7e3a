/**
 * The files of a post: several images (one carousel page each) or one .mov/.mp4 video, chosen or
 * dropped, with a preview and a way to take each back out.
 */
import { useFileSource } from '../../uploads/use-file-source';
import { useId, useRef, useState } from 'react';
import type { DragEvent } from 'react';
import type { PostKind } from '../../../common/api/posts';
import { POST_IMAGES_MAX } from '../../../common/api/posts';
import { fill, MSG } from '../../../common/messages';
import { Button } from '../../ui/Button';
import { FieldError } from '../../ui/Field';
import { ImageIcon, PlusIcon, VideoCallIcon } from '../../ui/icons';
import { formatBytes, IMAGE_ACCEPT, isImageFile, isVideoFile, VIDEO_ACCEPT } from '../../uploads/files';
import styles from './UploadPage.module.css';

interface MediaPickerProps {
  kind: PostKind;
  files: File[];
  onChange: (files: File[]) => void;
  error?: string | undefined;
  disabled?: boolean;
}

/** The files to add: the right type only, at most POST_IMAGES_MAX images or one video, and why any was left out. */
function accept(kind: PostKind, current: File[], added: File[]): { files: File[]; problem: string | null } {
  if (kind === 'video') {
    const video = added.find(isVideoFile);
    return video ? { files: [video], problem: added.length > 1 ? MSG.oneVideoPerPost : null } : { files: current, problem: MSG.notAVideo };
  }
  const images = added.filter(isImageFile);
  const room = POST_IMAGES_MAX - current.length;
  const problem = images.length < added.length ? MSG.notAnImage : images.length > room ? fill(MSG.tooManyImages, { max: POST_IMAGES_MAX }) : null;
  return { files: [...current, ...images.slice(0, Math.max(0, room))], problem };
}

export function MediaPicker({ kind, files, onChange, error, disabled = false }: MediaPickerProps) {
  const input = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const errorId = useId();
  const video = kind === 'video';
  const full = video ? files.length > 0 : files.length >= POST_IMAGES_MAX;

  const add = (added: File[]) => {
    if (added.length === 0) return;
    const next = accept(kind, files, added);
    setProblem(next.problem);
    onChange(next.files);
  };
  const remove = (index: number) => {
    setProblem(null);
    onChange(files.filter((_, i) => i !== index));
  };
  const drop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    if (!disabled) add([...event.dataTransfer.files]);
  };

  return (
    <div className={styles.picker}>
      <input
        ref={input}
        type="file"
        accept={video ? VIDEO_ACCEPT : IMAGE_ACCEPT}
        multiple={!video}
        className="visually-hidden"
        tabIndex={-1}
        aria-label={video ? 'Choose a video' : 'Choose images'}
        onChange={(e) => {
          add([...(e.target.files ?? [])]);
          e.target.value = '';
        }}
      />
      {files.length > 0 && (
        <ul className={video ? styles.videoPreview : styles.previews} aria-label={video ? 'Chosen video' : 'Chosen images'}>
          {files.map((file, index) => (
            <li key={`${file.name}-${file.size}-${file.lastModified}`} className={styles.preview}>
              <FilePreview file={file} video={video} />
              <div className={styles.previewCaption}>
                <span className={styles.previewName}>{file.name}</span>
                <span className={styles.previewSize}>{formatBytes(file.size)}</span>
              </div>
              {!disabled && (
                <button type="button" className={styles.remove} aria-label={`Remove ${file.name}`} onClick={() => remove(index)}>
                  ×
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {!full && (
        <div
          className={`${styles.dropZone} ${dragging ? styles.dragging : ''} ${files.length > 0 ? styles.dropZoneSmall : ''}`}
          onDragOver={(e) => {
            e.preventDefault();
            if (!disabled) setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={drop}
        >
          <span className={styles.dropIcon}>{video ? <VideoCallIcon size={28} /> : <ImageIcon size={28} />}</span>
          <p>
            {video ? 'Drop a .mov or .mp4 video here' : files.length > 0 ? `Add more images (up to ${POST_IMAGES_MAX})` : `Drop up to ${POST_IMAGES_MAX} images here`}
          </p>
          <Button
            variant="secondary"
            size="sm"
            icon={<PlusIcon size={16} />}
            disabled={disabled}
            aria-describedby={error || problem ? errorId : undefined}
            onClick={() => input.current?.click()}
          >
            {video ? 'Choose a video' : files.length > 0 ? 'Add images' : 'Choose images'}
          </Button>
        </div>
      )}
      <FieldError id={errorId} message={error ?? problem ?? undefined} />
    </div>
  );
}

/** The picture of a chosen file, from a local address made while it shows (and given back after). */
function FilePreview({ file, video }: { file: File; video: boolean }) {
  const attach = useFileSource(file);
  return video ? (
    <video ref={attach} className={styles.previewMedia} controls muted playsInline preload="metadata" aria-label={`Preview of ${file.name}`} />
  ) : (
    <img ref={attach} className={styles.previewMedia} alt={`Preview of ${file.name}`} />
  );
}
