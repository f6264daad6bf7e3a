/**
 * Analytics server state (common/api/analytics.ts): the caller's totals and daily series for a range of
 * days, today's totals, and the three top lists a page at a time. Analytics load errors are ignored
 * (spec part 2 §8): the page shows what loaded, zeros and empty lists for the rest, no toasts.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { analytics } from '../../../common/api/calls';
import { DAILY_EVENTS, TOTAL_EVENTS, type AnalyticsEvent } from '../../../common/api/analytics';
import { PAGE_SIZE } from '../../../common/constants';
import { call } from '../../api/client';
import type { DayRange } from '../../ui/date-range';

export type TopEvent = 'TOP_TIPPERS' | 'TOP_STREAMS_BY_TIP' | 'TOP_STREAM_BY_VIEW';

export const analyticsKeys = {
  all: ['analytics'] as const,
  range: (range: DayRange) => [...analyticsKeys.all, 'range', range.from, range.to] as const,
  today: (day: string) => [...analyticsKeys.all, 'today', day] as const,
  top: (event: TopEvent, range: DayRange, offset: number) => [...analyticsKeys.all, 'top', event, range.from, range.to, offset] as const,
};

const eventList = (events: readonly AnalyticsEvent[]) => events.join(',');

/** Totals and the three daily series of the picked days (null until the range selector has emitted). */
export function useRangeAnalytics(range: DayRange | null) {
  return useQuery({
    queryKey: range ? analyticsKeys.range(range) : [...analyticsKeys.all, 'range', null],
    enabled: range !== null,
    queryFn: () => call(analytics.userAnalytics, { event: eventList([...TOTAL_EVENTS, ...DAILY_EVENTS]), from: range!.from, to: range!.to }),
    placeholderData: keepPreviousData,
  });
}

/** Today's totals (`day` a UTC day, the days the figures are counted in). */
export function useTodayAnalytics(day: string) {
  return useQuery({
    queryKey: analyticsKeys.today(day),
    queryFn: () => call(analytics.userAnalytics, { event: eventList(TOTAL_EVENTS), from: day, to: day }),
  });
}

/** One page (5 rows) of a top list over `range`. */
export function useTopList(event: TopEvent, range: DayRange, offset: number) {
  return useQuery({
    queryKey: analyticsKeys.top(event, range, offset),
    queryFn: () => call(analytics.userAnalytics, { event, from: range.from, to: range.to, offset, limit: PAGE_SIZE.topLists }),
    placeholderData: keepPreviousData,
  });
}
