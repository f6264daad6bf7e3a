/** A broadcaster's earning details for a moderator holding GRANT PERMISSION (spec part 1 §6). */
import { Fragment } from 'react';
import { failureMessage } from '../../api/field-errors';
import { Alert } from '../../ui/Alert';
import { ModalSection } from '../../ui/ModalSection';
import { Spinner } from '../../ui/Spinner';
import { useEarningDetails } from './earnings-api';
import { earningRows } from './earnings';
import styles from './EarningDetails.module.css';

/** Render only for callers mayLoadEarnings allows: it loads as soon as it mounts. */
export function EarningDetails({ userId, username }: { userId: number; username: string }) {
  const details = useEarningDetails(userId, true);
  return (
    <ModalSection title={`Earnings of @${username}`} busy={details.isPending}>
      {details.isPending ? (
        <Spinner label="Loading earning details" size="sm" />
      ) : details.isError ? (
        <Alert>{failureMessage(details.error)}</Alert>
      ) : (
        <dl className={styles.facts}>
          {earningRows(details.data).map((row) => (
            <Fragment key={row.label}>
              <dt>{row.label}</dt>
              <dd>{row.value}</dd>
            </Fragment>
          ))}
        </dl>
      )}
    </ModalSection>
  );
}
