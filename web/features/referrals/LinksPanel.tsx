/**
 * The referral links: a selector (all links, or one: its figures only), the shown link's address with
 * a copy button, and a small form that adds a link for a campaign in one of the programmes.
 */
import { useId, useState, type FormEvent } from 'react';
import type { ReferralLink, ReferralType } from '../../../common/api/referrals';
import { MSG } from '../../../common/messages';
import { schemaErrors } from '../../api/field-errors';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { copyText } from '../../ui/clipboard';
import fieldStyles from '../../ui/Field.module.css';
import { LinkIcon, PlusIcon } from '../../ui/icons';
import pageStyles from '../../ui/Page.module.css';
import { Select, SelectControl } from '../../ui/Select';
import { TextField } from '../../ui/TextField';
import { useToast } from '../../ui/Toast';
import { useCreateReferralLink } from './api';
import { ALL_LINKS, linkLabel, parseLinkChoice, shownLink, TYPE_OPTIONS } from './referral-rules';
import styles from './referrals.module.css';
import * as referrals from '../../../common/api/referrals';

interface LinksPanelProps {
  links: readonly ReferralLink[];
  /** The picked link's id; null: all links. */
  picked: number | null;
  onPick: (id: number | null) => void;
  /** The person's first link (the session's referral_code_id), shown when all links are picked. */
  mainId: number | null;
}

export function LinksPanel({ links, picked, onPick, mainId }: LinksPanelProps) {
  const headingId = useId();
  const urlId = useId();
  const toast = useToast();
  const shown = shownLink(links, picked, mainId);
  const options = [{ value: ALL_LINKS, label: 'All links' }, ...links.map((link) => ({ value: String(link.referral_code_id), label: linkLabel(link) }))];
  const copy = async () => {
    if (!shown) return;
    const copied = await copyText(shown.url);
    toast(copied ? { title: MSG.linkCopied, description: shown.url, tone: 'success' } : { title: 'Copy this link', description: shown.url });
  };
  return (
    <section className={pageStyles.section} aria-labelledby={headingId}>
      <header className={pageStyles.sectionHeader}>
        <div>
          <h2 id={headingId} className={pageStyles.sectionTitle}>Links</h2>
          <p className={pageStyles.sectionDescription}>
            Share a link: people who sign up through it are yours. Agent links bring broadcasters, influencer links bring viewers.
          </p>
        </div>
      </header>
      <div className={styles.linkRow}>
        <span className={styles.linkSelect}>
          <SelectControl
            aria-label="Referral link"
            options={options}
            value={picked === null ? ALL_LINKS : String(picked)}
            onChange={(e) => onPick(parseLinkChoice(e.target.value))}
          />
        </span>
        {shown && (
          <>
            <label className="visually-hidden" htmlFor={urlId}>Link URL</label>
            <input id={urlId} className={`${fieldStyles.control} ${styles.linkUrl}`} readOnly value={shown.url} onFocus={(e) => e.currentTarget.select()} />
            <Button variant="secondary" icon={<LinkIcon size={16} />} onClick={() => void copy()}>
              Copy link
            </Button>
          </>
        )}
      </div>
      <NewLinkForm onCreated={(link) => onPick(link.referral_code_id)} />
    </section>
  );
}

function NewLinkForm({ onCreated }: { onCreated: (link: ReferralLink) => void }) {
  const headingId = useId();
  const [type, setType] = useState<ReferralType>('AGENT');
  const [campaign, setCampaign] = useState('');
  const [campaignError, setCampaignError] = useState<string | undefined>();
  const create = useCreateReferralLink();
  const toast = useToast();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const input = { type, ...(campaign.trim() ? { campaign: campaign.trim() } : {}) };
    const problem = schemaErrors(referrals.referralLinkCreate.input, input).campaign;
    setCampaignError(problem);
    if (problem) return;
    create.mutate(input, {
      onSuccess: ({ link }) => {
        setCampaign('');
        onCreated(link);
        toast({ title: 'Link created', description: link.url, tone: 'success' });
      },
    });
  };

  // The server's words for a refusal, next to the form (a field's own message under that field).
  const serverCampaignError = create.error?.field === 'campaign' ? create.error.message : create.error?.errors?.campaign;
  const formError = create.error && !serverCampaignError ? create.error.message : null;
  return (
    <form className={styles.newLink} aria-labelledby={headingId} onSubmit={submit} noValidate>
      <h3 id={headingId} className={styles.subTitle}>New campaign link</h3>
      <div className={styles.newLinkFields}>
        <span className={styles.typeField}>
          <Select
            label="Type"
            options={TYPE_OPTIONS}
            value={type}
            onChange={(e) => {
              setType(e.target.value === 'INFLUENCER' ? 'INFLUENCER' : 'AGENT');
              if (create.error) create.reset();
            }}
          />
        </span>
        <span className={styles.campaignField}>
          <TextField
            label="Campaign"
            value={campaign}
            maxLength={100}
            placeholder="spring-2026"
            error={campaignError ?? serverCampaignError}
            onChange={(e) => {
              setCampaign(e.target.value);
              setCampaignError(undefined);
              if (create.error) create.reset();
            }}
          />
        </span>
        <Button type="submit" icon={<PlusIcon size={16} />} loading={create.isPending} className={styles.createButton}>
          Create link
        </Button>
      </div>
      <Alert>{formError}</Alert>
    </form>
  );
}
