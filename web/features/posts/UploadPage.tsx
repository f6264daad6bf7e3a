/**
 * /user/upload (or the skin's `uploadPath`, /user/upload-video for one skin): Create Post (spec part 1
 * §2 Upload). An Image tab and a Video tab share one form; the files go up one after another over tus,
 * with progress, Pause and Resume, then post/create publishes them, and after 2 s the post opens.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { Dispatch, FormEvent, SetStateAction } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { subscriptions } from '../../../common/api/calls';
import { POST_AUDIENCES, POST_DESCRIPTION_MAX, POST_TITLE } from '../../../common/api/posts';
import type { PostAudience, PostKind } from '../../../common/api/posts';
import type { VaultItem } from '../../../common/api/vault';
import { POST_IMAGES_MAX } from '../../../common/api/posts';
import type { RATINGS } from '../../../common/api/streams';
import { TOAST_DELAY_MS } from '../../../common/constants';
import { fill, MSG } from '../../../common/messages';
import { POST_PRICE, PRICE_STEP } from '../../../common/rules/pay-wall';
import { call } from '../../api/client';
import { failureMessage, formRefusal, hasErrors, schemaErrors } from '../../api/field-errors';
import type { FieldErrors } from '../../api/field-errors';
import { SkinLink, useSkin, useSkinlessPath, useSkinPath } from '../../app/skin';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { CheckIcon } from '../../ui/icons';
import { Page } from '../../ui/Page';
import { Select } from '../../ui/Select';
import { Switch } from '../../ui/Switch';
import { Tabs } from '../../ui/Tabs';
import { TextArea } from '../../ui/TextArea';
import { TextField } from '../../ui/TextField';
import { useLater } from '../../ui/use-later';
import { forgetUploads, UploadFailure } from '../../uploads/resumable-upload';
import { UploadProgress } from '../../uploads/UploadProgress';
import { useUploadQueue } from '../../uploads/use-upload-queue';
import { useSession } from '../accounts';
import { RATING_LABEL } from '../streams';
import { subscriptionKeys, usePlans } from '../subscriptions';
import { useCreatePost } from './api';
import { FromVault } from './FromVault';
import { MediaPicker } from './MediaPicker';
import { AUDIENCE_LABEL } from './PostAudience';
import { expiryError, expiryIso, localDateTimeValue, postPath, postTip, priceRoundedNote, publishAtError, shownTip, uploadRatings } from './post-rules';
import styles from './UploadPage.module.css';
import * as posts from '../../../common/api/posts';

type Rating = (typeof RATINGS)[number];

export function UploadPage() {
  const skin = useSkin();
  const path = useSkinlessPath();
  const skinPath = useSkinPath();
  const location = useLocation();
  const [kind, setKind] = useState<PostKind>('image');
  const [busy, setBusy] = useState(false);
  // The details and each tab's files outlive a switch of tab.
  const [values, setValues] = useState<Values>(EMPTY);
  const [files, setFiles] = useState<Record<PostKind, File[]>>({ image: [], video: [] });
  // One address per skin: the other one leads to it, so the side bar marks Create Post.
  if (path !== skin.uploadPath) return <Navigate to={`${skinPath(skin.uploadPath)}${location.search}`} replace />;
  const form = (of: PostKind) => (
    <PostForm
      kind={of}
      values={values}
      onValues={setValues}
      files={files[of]}
      onFiles={(next) => setFiles((all) => ({ ...all, [of]: next }))}
      onBusy={setBusy}
    />
  );
  return (
    <Page title={MSG.createPost}>
      <Tabs
        label="Post type"
        value={kind}
        // A post being sent stays on its tab.
        onValueChange={(next) => !busy && setKind(next)}
        tabs={[
          { value: 'image', label: 'Image', content: form('image') },
          { value: 'video', label: 'Video', content: form('video') },
        ]}
      />
    </Page>
  );
}

interface Values {
  title: string;
  description: string;
  audience: PostAudience | '';
  rating: Rating | '';
  expires: string;
  publish_at: string;
  tip: string;
  comments_allowed: boolean;
}

const EMPTY: Values = { title: '', description: '', audience: '', rating: '', expires: '', publish_at: '', tip: '0', comments_allowed: true };

/** The fields the server may name in a refusal, and where the form shows them. */
const FORM_FIELDS = new Set(['title', 'description', 'audience', 'content_rating', 'expires', 'publish_at', 'tip', 'upload_ids']);

/** Asked when more than one rating is offered: none is chosen for the uploader. */
const CHOOSE_RATING = 'Please choose a rating';

type Phase = 'editing' | 'uploading' | 'publishing' | 'published';

interface PostFormProps {
  kind: PostKind;
  values: Values;
  onValues: Dispatch<SetStateAction<Values>>;
  files: File[];
  onFiles: (files: File[]) => void;
  onBusy: (busy: boolean) => void;
}

function PostForm({ kind, values, onValues: setValues, files, onFiles: setFiles, onBusy }: PostFormProps) {
  /** The price the server will keep, said when it differs from what was typed (the spec rounds it up to a step). */
  const [priceNote, setPriceNote] = useState<string | null>(null);
  const skin = useSkin();
  const skinPath = useSkinPath();
  const navigate = useNavigate();
  const later = useLater();
  const queryClient = useQueryClient();
  const { user } = useSession();
  const userId = user?.user_id ?? 0;
  const [touched, setTouched] = useState(false);
  const [serverErrors, setServerErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<{ title: string; detail: string | null } | null>(null);
  const [phase, setPhase] = useState<Phase>('editing');
  const [vaultChoice, setFromVault] = useState<VaultItem[]>([]);
  // A tab shows only the vault's media of its kind.
  const fromVault = vaultChoice.filter((item) => item.type === kind);
  const [earliest] = useState(() => localDateTimeValue(new Date()));
  const queue = useUploadQueue(MSG.postCreateFailed);
  const create = useCreatePost();
  const ratings = uploadRatings(user?.perms ?? [], skin.flags.adultContent);
  const audiences = POST_AUDIENCES.filter((a) => a !== 'subscribers' || skin.flags.subscriptions);
  const plans = usePlans(userId, values.audience === 'subscribers' && userId > 0);
  const busy = phase !== 'editing';

  useEffect(() => onBusy(busy), [busy, onBusy]);
  // Closing the tab mid-upload is allowed (the same file resumes later), but not by accident.
  useEffect(() => {
    if (phase !== 'uploading') return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [phase]);

  const rating: Rating | '' = ratings.length === 1 ? (ratings[0] ?? '') : values.rating;
  const input = {
    type: kind,
    title: values.title,
    description: values.description,
    audience: values.audience || undefined,
    content_rating: rating || undefined,
    expires: expiryIso(values.expires),
    publish_at: expiryIso(values.publish_at),
    tip: values.tip.trim() === '' ? 0 : postTip(Number(values.tip)) || Number(values.tip),
    comments_allowed: values.comments_allowed,
    // Stand-ins: the ids exist once the files are sent; the contract checks how many there are.
    upload_ids: files.map((_, i) => `file-${i}`),
    vault_ids: fromVault.map((item) => item.media_id),
  };
  const noPlan = values.audience === 'subscribers' && plans.data?.plans.length === 0;
  // This page's checks (the contract's, then the form's own) stop a send; the server's answers are only shown.
  const checks: FieldErrors = schemaErrors(posts.createPost.input, input);
  // The contract's "nothing chosen" is a check across fields, which it makes only once the others pass.
  if (files.length + fromVault.length === 0) checks.upload_ids = kind === 'video' ? MSG.selectVideo : MSG.selectImages;
  checks.expires ??= expiryError(values.expires);
  checks.publish_at ??= publishAtError(values.publish_at, values.expires);
  if (ratings.length === 0) checks.content_rating ??= MSG.uploadPermissionNeeded;
  else if (!rating) checks.content_rating ??= CHOOSE_RATING;
  if (noPlan) checks.audience ??= MSG.createPlanFirst;
  const errors: FieldErrors = { ...serverErrors, ...Object.fromEntries(Object.entries(checks).filter(([, message]) => message)) };
  const shown = (field: string) => (touched ? errors[field] : undefined);

  const set = <K extends keyof Values>(key: K, value: Values[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setServerErrors((e) => ({ ...e, [key === 'rating' ? 'content_rating' : key]: undefined }));
  };

  /** The caller's plans, read now if the page has not got them yet (subscribers only need one). */
  async function hasPlan(): Promise<boolean> {
    const list = await queryClient.fetchQuery({ queryKey: subscriptionKeys.plans(userId), queryFn: () => call(subscriptions.planList, { id: userId }) });
    return list.plans.length > 0;
  }

  async function publish(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    setFailure(null);
    setServerErrors({});
    if (busy || hasErrors(checks)) return;
    if (values.audience === 'subscribers' && !(await hasPlan().catch(() => true))) return;
    setPhase('uploading');
    let uploadIds: string[];
    try {
      uploadIds = files.length > 0 ? await queue.run(files) : [];
    } catch (error) {
      setPhase('editing');
      // The server's own words: 'This Video is too big. Maximum upload size is …' and the like.
      setFailure({ title: error instanceof UploadFailure ? error.message : MSG.postCreateFailed, detail: null });
      return;
    }
    setPhase('publishing');
    setValues((v) => ({ ...v, tip: shownTip(v.tip) }));
    create.mutate(
      { ...input, audience: values.audience as PostAudience, content_rating: rating as Rating, tip: postTip(Number(values.tip)), upload_ids: uploadIds, vault_ids: input.vault_ids },
      {
        onSuccess: ({ post_id }) => {
          void forgetUploads(files);
          setPhase('published');
          later(() => void navigate(skinPath(postPath(post_id))), TOAST_DELAY_MS);
        },
        onError: (error) => {
          setPhase('editing');
          const refusal = formRefusal(error, FORM_FIELDS);
          setServerErrors(refusal.fields);
          setFailure({ title: MSG.postCreateFailed, detail: refusal.message ?? (hasErrors(refusal.fields) ? null : failureMessage(error)) });
        },
      },
    );
  }

  if (phase === 'published') {
    return (
      <div className={styles.published} role="status">
        <span className={styles.publishedIcon}>
          <CheckIcon size={32} />
        </span>
        <strong>Your post is published!</strong>
        <span>Opening it…</span>
      </div>
    );
  }

  return (
    <form className={styles.form} onSubmit={(e) => void publish(e)} noValidate aria-label={kind === 'video' ? 'Upload video' : 'Upload image'}>
      <div className={styles.media}>
        <MediaPicker
          kind={kind}
          files={files}
          onChange={(next) => {
            setFiles(next);
            setServerErrors((e) => ({ ...e, upload_ids: undefined }));
          }}
          error={shown('upload_ids')}
          disabled={busy}
        />
        <FromVault
          kind={kind}
          chosen={fromVault}
          onChange={(items) => {
            setFromVault(items);
            setServerErrors((e) => ({ ...e, upload_ids: undefined }));
          }}
          room={(kind === 'video' ? 1 : POST_IMAGES_MAX) - files.length - fromVault.length}
          disabled={busy}
        />
        {kind === 'video' && <p className={styles.hint}>A .mov or .mp4 file. It is converted for playback after the upload; the post shows its progress.</p>}
        {!busy && <p className={styles.hint}>An upload that was cut off, or a tab that was closed, goes on from where it stopped when you choose the same file again.</p>}
      </div>
      <fieldset className={styles.fields} disabled={busy}>
        <legend className="visually-hidden">Post details</legend>
        <TextField label="Title" value={values.title} maxLength={POST_TITLE.max} onChange={(e) => set('title', e.target.value)} error={shown('title')} required />
        <TextArea
          label="Description (optional)"
          value={values.description}
          maxLength={POST_DESCRIPTION_MAX}
          rows={3}
          onChange={(e) => set('description', e.target.value)}
          error={shown('description')}
        />
        <div className={styles.row}>
          <Select
            label="Audience"
            placeholder="Select the audience"
            options={audiences.map((a) => ({ value: a, label: AUDIENCE_LABEL[a] }))}
            value={values.audience}
            onChange={(e) => set('audience', e.target.value as PostAudience | '')}
            error={noPlan ? errors.audience : shown('audience')}
            hint={noPlan ? undefined : 'Who can see this post.'}
            required
          />
          {ratings.length !== 1 && (
            <Select
              label="Rating"
              placeholder="Select a rating"
              options={ratings.map((r) => ({ value: r, label: RATING_LABEL[r] }))}
              value={values.rating}
              onChange={(e) => set('rating', e.target.value as Rating | '')}
              error={shown('content_rating')}
              required
            />
          )}
        </div>
        {noPlan && (
          <p className={styles.hint}>
            <SkinLink to="/subscription">Create a subscription plan</SkinLink> to post for your subscribers.
          </p>
        )}
        <div className={styles.row}>
          <TextField
            label="Price (coins)"
            type="number"
            inputMode="numeric"
            min={0}
            max={POST_PRICE.max}
            step={PRICE_STEP}
            value={values.tip}
            onChange={(e) => {
              set('tip', e.target.value);
              setPriceNote(null);
            }}
            // The price it becomes, as the person leaves the field (rounded up to 10, 10 to 1000), said when it changed.
            onBlur={() => {
              const note = priceRoundedNote(values.tip);
              setPriceNote(note && fill(MSG.postPriceRounded, { ...note, min: POST_PRICE.min, max: POST_PRICE.max.toLocaleString('en-US'), step: PRICE_STEP }));
              set('tip', shownTip(values.tip));
            }}
            error={shown('tip')}
            hint={priceNote ? <span role="status">{priceNote}</span> : `0 keeps the post free. A paid post costs ${POST_PRICE.min} to ${POST_PRICE.max.toLocaleString('en-US')} coins, in steps of ${PRICE_STEP}.`}
          />
          <TextField
            label="Publish at (optional)"
            type="datetime-local"
            min={earliest}
            value={values.publish_at}
            onChange={(e) => set('publish_at', e.target.value)}
            error={shown('publish_at')}
            hint="Empty publishes now; others see the post from this moment."
          />
          <TextField
            label="Expires (optional)"
            type="datetime-local"
            min={earliest}
            value={values.expires}
            onChange={(e) => set('expires', e.target.value)}
            error={shown('expires')}
            hint="After this moment the post is no longer shown."
          />
        </div>
        <Switch label="Allow comments" checked={values.comments_allowed} onCheckedChange={(on) => set('comments_allowed', on)} disabled={busy} />
      </fieldset>
      {(phase === 'uploading' || phase === 'publishing' || queue.files.length > 0) && <UploadProgress queue={queue} className={styles.progress} />}
      <div className={styles.submit}>
        {failure && (
          <Alert>
            {failure.title}
            {failure.detail && <span className={styles.failureDetail}> {failure.detail}</span>}
          </Alert>
        )}
        <Button type="submit" size="lg" loading={busy} disabled={busy}>
          {phase === 'publishing' ? 'Publishing…' : phase === 'uploading' ? 'Uploading…' : 'Publish'}
        </Button>
      </div>
    </form>
  );
}
