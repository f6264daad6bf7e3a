/**
 * /user/analytics: the creator analytics dashboard (spec part 2 §2 screens 2 and 6, §3, §8, §9).
 * The header's date range selector picks the days of the totals and the daily charts; each total has
 * today's figure under it; three top-5 lists each have their own range menu. Figures are counted in
 * UTC days and folded a minute or so after they happen (the "Updated" note says up to when). Load
 * errors are ignored: what did not load shows as zeros and empty lists.
 */
import { lazy, Suspense, useId, useMemo, useState, type ReactNode } from 'react';
import type { AnalyticsResult, TopStream, TopTipper } from '../../../common/api/analytics';
import { PAGE_SIZE } from '../../../common/constants';
import { MSG } from '../../../common/messages';
import { relativeTime, shortNumber } from '../../../common/rules/format';
import { shownTitle } from '../../../common/rules/stream-display';
import { SkinLink } from '../../app/skin';
import { Avatar } from '../../ui/Avatar';
import { Button } from '../../ui/Button';
import { daysOf, isDay, utcDay, type DateRangeValue, type DayRange } from '../../ui/date-range';
import { DateRangePicker } from '../../ui/DateRangePicker';
import { EmptyState } from '../../ui/EmptyState';
import { DownloadIcon } from '../../ui/icons';
import { Page, Section } from '../../ui/Page';
import pageStyles from '../../ui/Page.module.css';
import { SelectControl } from '../../ui/Select';
import { Spinner } from '../../ui/Spinner';
import { TileArtwork } from '../../ui/Tile';
import { Paginator } from '../../ui/Paginator';
import { useRangeAnalytics, useTodayAnalytics, useTopList, type TopEvent } from './api';
import styles from './analytics.module.css';
import { dailyCsv, dailyCsvFileName, dailyRows, type DailyRow } from './daily';
import { DEFAULT_TOP_RANGE, isTopRange, TOP_RANGES, topRangeDays, type TopRange } from './ranges';

// uPlot comes with the charts only, so no other page fetches it.
const DailyChart = lazy(async () => ({ default: (await import('./DailyChart')).DailyChart }));

const TOTALS = [
  { key: 'TOTAL_EARNINGS', label: 'Earnings (coins, after fees)' },
  { key: 'TOTAL_TIP_COUNT', label: 'Tips (coins)' },
  { key: 'TOTAL_STREAM_VIEW_COUNT', label: 'Stream views' },
  { key: 'TOTAL_STREAM_LIKE_COUNT', label: 'Stream likes' },
  { key: 'TOTAL_FOLLOWERS_COUNT', label: 'New followers' },
] as const;

const SERIES = [
  { figure: 'totalTip', title: 'Tips (coins)', name: 'Coins', color: '--color-accent' },
  { figure: 'totalStreamViews', title: 'Stream views', name: 'Views', color: '--color-success' },
  { figure: 'totalFollowers', title: 'New followers', name: 'Followers', color: '--color-text' },
] as const;

const clock = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

export function AnalyticsPage() {
  const [picked, setPicked] = useState<DateRangeValue | null>(null);
  const days = picked ? daysOf(picked) : null;
  // Today's figures and the top lists' ranges are counted in UTC days, like the figures themselves.
  const [today] = useState(() => utcDay(new Date()));
  const range = useRangeAnalytics(days);
  const todays = useTodayAnalytics(today);
  const foldedUntil = range.data?.folded_until ?? todays.data?.folded_until ?? null;
  return (
    <Page title="Analytics" aside={<DateRangePicker onChange={setPicked} />}>
      {foldedUntil && <Updated at={foldedUntil} />}
      <Totals
        range={range.data?.result}
        today={todays.data?.result}
        rangePending={days === null || range.isPending}
        todayPending={todays.isPending}
        busy={range.isPlaceholderData}
      />
      <DailyFigures
        days={days}
        answer={range.data}
        pending={days === null || range.isPending}
        busy={range.isPlaceholderData}
      />
      <div className={styles.tops}>
        <TopList event="TOP_TIPPERS" title="Top tippers" empty={MSG.noTippers} today={today} />
        <TopList event="TOP_STREAMS_BY_TIP" title="Top streams by tips" empty={MSG.noStreamsAvailable} today={today} />
        <TopList event="TOP_STREAM_BY_VIEW" title="Top streams by views" empty={MSG.noStreamsAvailable} today={today} />
      </div>
    </Page>
  );
}

/** Up to when the figures are counted (later activity is folded within a minute or so). */
function Updated({ at }: { at: string }) {
  const when = new Date(at);
  if (Number.isNaN(when.getTime())) return null;
  const age = relativeTime(when);
  return (
    <p className={styles.updated}>
      Updated <time dateTime={at} title={clock.format(when)}>{age === 'now' ? 'just now' : `${age} ago`}</time>
    </p>
  );
}

function Totals({ range, today, rangePending, todayPending, busy }: {
  range: AnalyticsResult | undefined;
  today: AnalyticsResult | undefined;
  rangePending: boolean;
  todayPending: boolean;
  busy: boolean;
}) {
  return (
    <section aria-label="Totals" aria-busy={rangePending || busy || undefined}>
      <ul className={styles.totals}>
        {TOTALS.map(({ key, label }) => (
          <li key={key} className={styles.total} aria-label={label}>
            <span className={styles.totalLabel}>{label}</span>
            {rangePending ? <Spinner size="sm" /> : <Figure value={range?.[key] ?? 0} className={styles.totalValue} />}
            <span className={styles.today}>
              Today: {todayPending ? <Spinner size="sm" /> : <Figure value={today?.[key] ?? 0} />}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** A figure in the spec's short form (1.2k), the exact number on hover. */
function Figure({ value, className }: { value: number; className?: string }) {
  return (
    <strong className={className} title={value.toLocaleString('en-US')}>
      {shortNumber(value)}
    </strong>
  );
}

function DailyFigures({ days, answer, pending, busy }: {
  days: DayRange | null;
  answer: { from: string; to: string; result: AnalyticsResult } | undefined;
  pending: boolean;
  busy: boolean;
}) {
  // The rows are those of the days answered (while another range loads, the last one stays drawn);
  // with no answer (not loaded), the picked days at zero.
  const shown = answer && isDay(answer.from) && isDay(answer.to) && answer.from <= answer.to ? { from: answer.from, to: answer.to } : days;
  const from = shown?.from;
  const to = shown?.to;
  const result = answer?.result;
  const rows = useMemo(() => (from && to ? dailyRows(result, { from, to }) : []), [from, to, result]);
  const download = () => from && to && saveFile(dailyCsvFileName({ from, to }), dailyCsv(rows));
  return (
    <Section
      title="Daily figures"
      description="Tips, stream views and new followers per day (UTC days)."
      actions={
        <Button variant="secondary" size="sm" icon={<DownloadIcon size={16} />} disabled={pending || busy || rows.length === 0} onClick={download}>
          Download CSV
        </Button>
      }
    >
      {pending ? <Spinner label="Loading the daily figures" /> : <Charts rows={rows} range={shown} />}
    </Section>
  );
}

function Charts({ rows, range }: { rows: DailyRow[]; range: DayRange | null }) {
  const dates = useMemo(() => rows.map((row) => row.date), [rows]);
  const series = useMemo(() => SERIES.map((s) => ({ ...s, values: rows.map((row) => row[s.figure]) })), [rows]);
  const span = range ? `${range.from} to ${range.to}` : '';
  return (
    <div className={styles.charts}>
      {series.map((s) => (
        <figure key={s.figure} className={styles.figure}>
          <figcaption className={styles.figureTitle}>
            <h3>{s.title}</h3>
            <Figure value={s.values.reduce((sum, value) => sum + value, 0)} />
          </figcaption>
          <Suspense fallback={<div className={styles.chartLoading}><Spinner label="Loading the chart" /></div>}>
            <DailyChart name={s.name} label={`${s.title} per day, ${span}`} days={dates} values={s.values} color={s.color} />
          </Suspense>
        </figure>
      ))}
    </div>
  );
}

/** Offers text as a file download (the CSV of the charts). */
function saveFile(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 0);
}

// ---------------------------------------------------------------------------------------------
// Top lists

function TopList({ event, title, empty, today }: { event: TopEvent; title: string; empty: string; today: string }) {
  const headingId = useId();
  const [topRange, setTopRange] = useState<TopRange>(DEFAULT_TOP_RANGE);
  const [offset, setOffset] = useState(0);
  const list = useTopList(event, topRangeDays(topRange, today), offset);
  const result = list.data?.result;
  const page = event === 'TOP_TIPPERS' ? result?.TOP_TIPPERS : result?.[event];
  const rows: ReactNode[] = event === 'TOP_TIPPERS'
    ? (result?.TOP_TIPPERS?.list ?? []).map((tipper, i) => <TipperRow key={tipper.user_id} rank={offset + i + 1} tipper={tipper} />)
    : (result?.[event]?.list ?? []).map((stream, i) => <StreamRow key={stream.stream_id} rank={offset + i + 1} stream={stream} rangeViews={event === 'TOP_STREAM_BY_VIEW'} />);
  const total = page?.total ?? 0;
  return (
    <section className={`${pageStyles.section} ${styles.top}`} aria-labelledby={headingId}>
      <header className={`${pageStyles.sectionHeader} ${styles.topHeader}`}>
        <h2 id={headingId} className={pageStyles.sectionTitle}>{title}</h2>
        <span className={styles.rangeMenu}>
          <SelectControl
            aria-label={`${title} range`}
            className={styles.rangeSelect}
            options={TOP_RANGES}
            value={topRange}
            onChange={(e) => {
              if (!isTopRange(e.target.value)) return;
              setTopRange(e.target.value);
              setOffset(0);
            }}
          />
        </span>
      </header>
      {list.isPending ? (
        <Spinner label={`Loading ${title.toLowerCase()}`} />
      ) : rows.length === 0 ? (
        <EmptyState>{empty}</EmptyState>
      ) : (
        <>
          <ol className={styles.rows} aria-label={title} aria-busy={list.isPlaceholderData || undefined}>{rows}</ol>
          <Paginator label={`${title} pages`} total={total} size={PAGE_SIZE.topLists} offset={offset} onOffset={setOffset} />
        </>
      )}
    </section>
  );
}

function TipperRow({ rank, tipper }: { rank: number; tipper: TopTipper }) {
  return (
    <li className={styles.row}>
      <span className={styles.rank}>{rank}</span>
      <Avatar name={tipper.sname} src={tipper.thumb_url || null} size={36} />
      <SkinLink to={`/u/${tipper.user_id}`} className={styles.name}>{tipper.sname}</SkinLink>
      <span className={styles.coins}>
        <Figure value={tipper.tip_coin} /> coins
      </span>
    </li>
  );
}

function StreamRow({ rank, stream, rangeViews }: { rank: number; stream: TopStream; rangeViews: boolean }) {
  const title = shownTitle(stream.title);
  return (
    <li className={styles.row}>
      <span className={styles.rank}>{rank}</span>
      <span className={styles.thumb}>
        <TileArtwork title={title || '?'} thumbnail={stream.thumb_url || null} initial={false} />
      </span>
      <span className={styles.info}>
        <SkinLink to={`/streams/stream-view?id=${stream.stream_id}`} className={styles.name}>{title}</SkinLink>
        <span className={styles.meta}>
          <span><Figure value={stream.likes} /> likes</span>
          <span>
            <Figure value={stream.views} /> views
            {rangeViews && <> (<Figure value={stream.range_views} /> in range)</>}
          </span>
          <span><Figure value={stream.tip_coin} /> coins</span>
          {stream.goals_set > 0 && <span><Figure value={stream.goals_reached} /> of <Figure value={stream.goals_set} /> goals reached</span>}
        </span>
      </span>
    </li>
  );
}
