/** A year's months for taxes (decision 0062): gross, fees, net and payouts, and the year's totals. */
import { useSearchParams } from 'react-router';
import { failureMessage } from '../../api/field-errors';
import { Alert } from '../../ui/Alert';
import { DataTable } from '../../ui/DataTable';
import { Section } from '../../ui/Page';
import { Spinner } from '../../ui/Spinner';
import { useYearSummary } from './api';
import { monthTitle } from './months';
import { Amount } from './Amount';
import styles from './statements.module.css';

export function YearSummary({ year }: { year: number }) {
  const summary = useYearSummary(year);
  const [, setQuery] = useSearchParams();
  return (
    <Section title={`${year} summary`} description="Each month's earnings before and after the platform's fees, and your payouts: what you report for the year.">
      {summary.isPending ? <Spinner label="Loading the year" />
        : summary.isError ? <Alert>{failureMessage(summary.error)}</Alert>
        : (
          <DataTable
            label={`${year} by month`}
            rows={summary.data.months}
            rowKey={(m) => m.month}
            columns={[
              { header: 'Month', cell: (m) => <button type="button" className={styles.monthLink} onClick={() => setQuery({ month: m.month })}>{monthTitle(m.month)}</button> },
              { header: 'Gross', cell: (m) => <Amount coins={m.gross} />, numeric: true },
              { header: 'Fees', cell: (m) => <Amount coins={m.fees} />, numeric: true },
              { header: 'Net', cell: (m) => <Amount coins={m.net} />, numeric: true },
              { header: 'Payouts', cell: (m) => <Amount coins={m.payouts} />, numeric: true },
            ]}
            footer={<>Year: gross <Amount coins={summary.data.totals.gross} />, fees <Amount coins={summary.data.totals.fees} />, net <Amount coins={summary.data.totals.net} />, payouts <Amount coins={summary.data.totals.payouts} /></>}
          />
        )}
    </Section>
  );
}
