/**
 * /user/referral: the referral dashboard (spec part 1 §2 Referral dashboard, §3 Referral, §6 ALLOW
 * REFERRAL_ACCESS; part 2 §7, §8). A holder of the programme picks a link (or all) and a range of days;
 * the summary (settlements, referral count, rates), the referred, commission and streaming summaries
 * and the referred people follow them. Figures are those of settled periods: stats update daily.
 * Anyone else signed in is told they are not eligible, with a mail link to the skin's support, and no
 * referral call is made.
 */
import { useId, useState, type ReactNode } from 'react';
import { fill, MSG } from '../../../common/messages';
import { useSkin } from '../../app/skin';
import { buttonClass } from '../../ui/Button';
import { daysOf, type DateRangeValue } from '../../ui/date-range';
import { DateRangePicker } from '../../ui/DateRangePicker';
import { MailIcon } from '../../ui/icons';
import { Page } from '../../ui/Page';
import pageStyles from '../../ui/Page.module.css';
import { Spinner } from '../../ui/Spinner';
import { useSession } from '../accounts';
import { useCommissionSummary, useReferralSummary, useReferredSummary, useStreamingSummary } from './api';
import { LinksPanel } from './LinksPanel';
import { LoadFailed } from './LoadFailed';
import {
  COMMISSION_LABELS, coins, figure, hasReferralAccess, hours, periodLabel, ratePercent, rateLabel, REFERRAL_TEXT, referralFilters,
  TYPE_LABELS, type ReferralFilters,
} from './referral-rules';
import { ReferredList } from './ReferredList';
import styles from './referrals.module.css';

export function ReferralPage() {
  const { user } = useSession();
  if (!user || !hasReferralAccess(user)) return <NotEligible />;
  return <ReferralDashboard mainId={user.referral_code_id} />;
}

function NotEligible() {
  const skin = useSkin();
  return (
    <Page title="Referrals" width="narrow">
      <section className={`${pageStyles.section} ${styles.ineligible}`} aria-label="Referral program">
        <p>{fill(MSG.referralIneligible, { brand: skin.name })}</p>
        <a className={buttonClass({ variant: 'secondary' })} href={`mailto:${skin.supportEmail}`}>
          <MailIcon size={16} />
          <span>Contact</span>
        </a>
      </section>
    </Page>
  );
}

function ReferralDashboard({ mainId }: { mainId: number | null }) {
  const [picked, setPicked] = useState<DateRangeValue | null>(null);
  const [linkId, setLinkId] = useState<number | null>(null);
  const filters = picked ? referralFilters(linkId, daysOf(picked)) : null;
  const summary = useReferralSummary(filters);
  return (
    <Page title="Referrals" aside={<DateRangePicker onChange={setPicked} />}>
      <LinksPanel links={summary.data?.links ?? []} picked={linkId} onPick={setLinkId} mainId={mainId} />
      <SummaryCards summary={summary} pending={filters === null} />
      <div className={styles.summaries}>
        <ReferredSummary filters={filters} />
        <CommissionSummary filters={filters} />
        <StreamingSummary filters={filters} />
      </div>
      <ReferredList filters={filters} />
    </Page>
  );
}

// ---------------------------------------------------------------------------------------------
// Summary

function SummaryCards({ summary, pending }: { summary: ReturnType<typeof useReferralSummary>; pending: boolean }) {
  const data = summary.data?.summary;
  const loading = pending || summary.isPending;
  return (
    <section aria-label="Summary" aria-busy={loading || summary.isPlaceholderData || undefined} className={styles.summary}>
      {summary.isError && <LoadFailed error={summary.error} />}
      {loading ? (
        <Spinner label="Loading the summary" />
      ) : data ? (
        <ul className={styles.cards}>
          <Card label="Last settlement">
            {data.last_settlement_date_formatted ? (
              <>
                <strong className={styles.cardValue}>{data.last_settlement_amount_formatted}</strong>
                <span className={styles.cardNote}>{data.last_settlement_date_formatted}</span>
              </>
            ) : (
              <strong className={styles.cardValue}>{REFERRAL_TEXT.none}</strong>
            )}
          </Card>
          <Card label="Pending settlement">
            <strong className={styles.cardValue}>{data.pending_settlement_amount_formatted}</strong>
          </Card>
          <Card label="Total referrals">
            <strong className={styles.cardValue}>{figure(data.total_referral_count)}</strong>
          </Card>
          <Card label="Rates">
            {data.rates.length === 0 ? (
              <strong className={styles.cardValue}>{REFERRAL_TEXT.none}</strong>
            ) : (
              <ul className={styles.rates}>
                {data.rates.map((rate) => <li key={`${rate.type}-${rate.commission_type}`}>{rateLabel(rate)}</li>)}
              </ul>
            )}
          </Card>
        </ul>
      ) : null}
      <p className={styles.note}>{REFERRAL_TEXT.statsDaily}</p>
    </section>
  );
}

function Card({ label, children }: { label: string; children: ReactNode }) {
  const labelId = useId();
  return (
    <li className={styles.card} aria-labelledby={labelId}>
      <span id={labelId} className={styles.cardLabel}>{label}</span>
      {children}
    </li>
  );
}

/** A titled card whose heading names it (a region a reader can jump to). */
function Region({ title, description, children }: { title: string; description?: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <section className={`${pageStyles.section} ${styles.region}`} aria-labelledby={headingId}>
      <header>
        <h2 id={headingId} className={pageStyles.sectionTitle}>{title}</h2>
        {description && <p className={pageStyles.sectionDescription}>{description}</p>}
      </header>
      {children}
    </section>
  );
}

/** A list of labelled figures. */
function Figures({ rows }: { rows: ReadonlyArray<[string, ReactNode]> }) {
  return (
    <dl className={styles.figures}>
      {rows.map(([label, value]) => (
        <div key={label} className={styles.figureRow}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Loading({ what }: { what: string }) {
  return <Spinner label={`Loading the ${what}`} />;
}

function ReferredSummary({ filters }: { filters: ReferralFilters | null }) {
  const referred = useReferredSummary(filters);
  const data = referred.data;
  return (
    <Region title="Referred" description="Sign-ups through your links.">
      {referred.isError && <LoadFailed error={referred.error} />}
      {filters === null || referred.isPending ? (
        <Loading what="referred summary" />
      ) : data ? (
        <div aria-busy={referred.isPlaceholderData || undefined} className={styles.busyable}>
          <Figures
            rows={[
              ['In range', figure(data.in_range)],
              ['All time', figure(data.total)],
              [`${TYPE_LABELS.AGENT}s (broadcasters)`, figure(data.by_type.AGENT)],
              [`${TYPE_LABELS.INFLUENCER}s (viewers)`, figure(data.by_type.INFLUENCER)],
            ]}
          />
        </div>
      ) : null}
    </Region>
  );
}

function CommissionSummary({ filters }: { filters: ReferralFilters | null }) {
  const commission = useCommissionSummary(filters);
  const data = commission.data;
  return (
    <Region title="Commission" description="Settled periods in the range.">
      {commission.isError && <LoadFailed error={commission.error} />}
      {filters === null || commission.isPending ? (
        <Loading what="commission summary" />
      ) : data ? (
        <div aria-busy={commission.isPlaceholderData || undefined} className={styles.busyable}>
          <Figures rows={[['Base', coins(data.base_total)], ['Commission', coins(data.earn_total)]]} />
          {data.by_type.length > 0 && (
            <div className={styles.tableWrap} tabIndex={0}>
              <table className={styles.table} aria-label="Commission by type">
                <thead>
                  <tr>
                    <th scope="col">Type</th>
                    <th scope="col" className={styles.num}>Rate</th>
                    <th scope="col" className={styles.num}>Base</th>
                    <th scope="col" className={styles.num}>Commission</th>
                  </tr>
                </thead>
                <tbody>
                  {data.by_type.map((row) => (
                    <tr key={row.commission_type}>
                      <td>{COMMISSION_LABELS[row.commission_type]}</td>
                      <td className={styles.num}>{ratePercent(row.rate)}</td>
                      <td className={styles.num}>{coins(row.base_total)}</td>
                      <td className={styles.num}>{coins(row.earn_total)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <h3 className={styles.subTitle}>Settlements</h3>
          {data.settlements.length === 0 ? (
            <p className={styles.note}>No settlements in this range.</p>
          ) : (
            <ul className={styles.settlements} aria-label="Settlements">
              {data.settlements.map((settlement) => (
                <li key={`${settlement.period_start}-${settlement.period_end}`}>
                  <span>{periodLabel(settlement.period_start, settlement.period_end)}</span>
                  <strong>{coins(settlement.amount)}</strong>
                </li>
              ))}
            </ul>
          )}
        </div>
      ) : null}
    </Region>
  );
}

function StreamingSummary({ filters }: { filters: ReferralFilters | null }) {
  const streaming = useStreamingSummary(filters);
  const data = streaming.data;
  return (
    <Region title="Streaming" description="What your referred broadcasters streamed in the range.">
      {streaming.isError && <LoadFailed error={streaming.error} />}
      {filters === null || streaming.isPending ? (
        <Loading what="streaming summary" />
      ) : data ? (
        <div aria-busy={streaming.isPlaceholderData || undefined} className={styles.busyable}>
          <Figures
            rows={[
              ['Broadcasters', figure(data.broadcasters)],
              ['Streams', figure(data.streams)],
              ['Hours', hours(data.hours)],
              ['Tips', coins(data.tip_coins)],
            ]}
          />
        </div>
      ) : null}
    </Region>
  );
}
