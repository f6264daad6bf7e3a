/** Tax information and statements server state (decision 0062). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { statements } from '../../../common/api/calls';
import type { CallInput } from '../../../common/api';
import { STATEMENT_CSV_PATH } from '../../../common/api/statements';
import { call } from '../../api/client';

export const statementKeys = {
  all: ['statements'] as const,
  taxInfo: () => [...statementKeys.all, 'tax-info'] as const,
  month: (month: string) => [...statementKeys.all, 'month', month] as const,
  year: (year: number) => [...statementKeys.all, 'year', year] as const,
};

export function useTaxInfo() {
  return useQuery({ queryKey: statementKeys.taxInfo(), queryFn: async () => (await call(statements.getTaxInfo, {})).tax_info });
}

export function useSaveTaxInfo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (fields: CallInput<typeof statements.saveTaxInfo>) => (await call(statements.saveTaxInfo, fields)).tax_info,
    onSuccess: (saved) => queryClient.setQueryData(statementKeys.taxInfo(), saved),
  });
}

export function useStatement(month: string) {
  return useQuery({ queryKey: statementKeys.month(month), queryFn: async () => (await call(statements.monthlyStatement, { month })).statement });
}

export function useYearSummary(year: number) {
  return useQuery({ queryKey: statementKeys.year(year), queryFn: async () => (await call(statements.yearSummary, { year })).summary });
}

/** The CSV's address: a plain link downloads it with the session cookie (a GET needs no CSRF header). */
export const statementCsvHref = (month: string) => `${STATEMENT_CSV_PATH}?month=${encodeURIComponent(month)}`;
