import { useRef } from 'react';
import type { ChangeEvent } from 'react';
import type { SessionUser } from '../../../common/api/accounts';
import { MSG } from '../../../common/messages';
import { failureMessage } from '../../api/field-errors';
import { Avatar } from '../../ui/Avatar';
import { Button } from '../../ui/Button';
import { CameraIcon } from '../../ui/icons';
import { useToast } from '../../ui/Toast';
import { useUploadAvatar } from './api';
import styles from './SettingsPage.module.css';

const MAX_BYTES = 5 * 1024 * 1024;
const ACCEPT = 'image/jpeg,image/png,image/webp,image/gif';

/** The avatar and its upload button; the server checks the content, these checks only save a trip. */
export function AvatarUpload({ user }: { user: SessionUser }) {
  const input = useRef<HTMLInputElement>(null);
  const uploadAvatar = useUploadAvatar(user.user_id);
  const toast = useToast();

  const onFile = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (!ACCEPT.split(',').includes(file.type)) return toast({ title: MSG.notAnImage, tone: 'error' });
    if (file.size > MAX_BYTES) return toast({ title: MSG.avatarTooBig, tone: 'error' });
    uploadAvatar.mutate(file, {
      onSuccess: () => toast({ title: 'Your photo is updated!', tone: 'success' }),
      onError: (error) => toast({ title: MSG.avatarNotSaved, description: failureMessage(error), tone: 'error' }),
    });
  };

  return (
    <div className={styles.avatar}>
      <Avatar name={user.username} src={user.avatar} size={96} />
      <div className={styles.avatarText}>
        <strong>@{user.username}</strong>
        <span>JPEG, PNG, WebP or GIF, up to 5 MB.</span>
        <input ref={input} type="file" accept={ACCEPT} className="visually-hidden" onChange={onFile} aria-label="Choose a profile photo" tabIndex={-1} />
        <Button variant="secondary" size="sm" icon={<CameraIcon size={16} />} loading={uploadAvatar.isPending} onClick={() => input.current?.click()}>
          Upload Photo
        </Button>
      </div>
    </div>
  );
}
