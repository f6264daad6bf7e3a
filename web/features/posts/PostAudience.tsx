/** Who sees a post: the labels, and the owner's Edit Audience modal (post/edit) on the post page. */
import { useState } from 'react';
import { POST_AUDIENCES } from '../../../common/api/posts';
import type { Post, PostAudience } from '../../../common/api/posts';
import { MSG } from '../../../common/messages';
import { failureMessage } from '../../api/field-errors';
import { SkinLink, useSkin } from '../../app/skin';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { Modal } from '../../ui/Modal';
import { Select } from '../../ui/Select';
import { useToast } from '../../ui/Toast';
import { usePlans } from '../subscriptions';
import { useEditPost } from './api';
import styles from './posts.module.css';

export const AUDIENCE_LABEL: Record<PostAudience, string> = { public: 'Public', followers: 'Followers', subscribers: 'Subscribers', private: 'Private' };

interface EditAudienceModalProps {
  post: Post;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

export function EditAudienceModal({ post, open, onOpenChange }: EditAudienceModalProps) {
  return (
    <Modal open={open} onOpenChange={onOpenChange} title="Edit Audience" description="Choose who can see this post." size="sm">
      {open && <EditAudienceForm post={post} onDone={() => onOpenChange(false)} />}
    </Modal>
  );
}

function EditAudienceForm({ post, onDone }: { post: Post; onDone: () => void }) {
  const skin = useSkin();
  const toast = useToast();
  const edit = useEditPost(post.post_id);
  const [audience, setAudience] = useState<PostAudience>(post.audience);
  // A post for subscribers needs a plan to subscribe to (spec part 1 §2 Upload).
  const plans = usePlans(post.user_id, audience === 'subscribers');
  const noPlan = audience === 'subscribers' && plans.data?.plans.length === 0;
  const options = POST_AUDIENCES.filter((a) => a !== 'subscribers' || skin.flags.subscriptions).map((a) => ({ value: a, label: AUDIENCE_LABEL[a] }));
  const save = () =>
    edit.mutate(
      { audience },
      {
        onSuccess: () => {
          toast({ title: 'The audience is changed', tone: 'success' });
          onDone();
        },
      },
    );
  return (
    <form
      className={styles.modalForm}
      onSubmit={(e) => {
        e.preventDefault();
        if (!noPlan) save();
      }}
      noValidate
    >
      <Select
        label="Audience"
        options={options}
        value={audience}
        onChange={(e) => setAudience(e.target.value as PostAudience)}
        error={noPlan ? MSG.createPlanFirst : undefined}
        hint={audience === 'private' ? 'Once private, the audience of a post cannot change again.' : undefined}
      />
      {noPlan && (
        <p>
          <SkinLink to="/subscription">Create a subscription plan</SkinLink>
        </p>
      )}
      <Alert>{edit.isError ? failureMessage(edit.error) : null}</Alert>
      <div className={styles.modalActions}>
        <Button variant="secondary" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" loading={edit.isPending} disabled={noPlan || audience === post.audience || plans.isFetching}>
          Save
        </Button>
      </div>
    </form>
  );
}
