import { Page } from '../../ui/Page';
import { Outbox } from './Outbox';

/** /dev/outbox (administrators): how a person running the embedded default reads the mail it "sent". */
export function OutboxPage() {
  return (
    <Page title="Outbox">
      <Outbox source="dev" />
    </Page>
  );
}
