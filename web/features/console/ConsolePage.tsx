/**
 * /admin: the operator console. Its tabs are the parts the signed-in person may use (common/console.ts);
 * anyone else sees Not Found, as the server's calls answer 404.
 */
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { consoleAreas, type ConsoleArea } from '../../../common/console';
import { PageSpinner, useSession } from '../accounts';
import { PlatformChatFilter } from '../chat';
import { Outbox } from '../mail';
import { NotFoundPage } from '../system';
import { Page } from '../../ui/Page';
import { Tabs } from '../../ui/Tabs';
import { AuditPanel } from './AuditPanel';
import { ChannelsPanel } from './ChannelsPanel';
import { FeaturedPanel } from './FeaturedPanel';
import { JobsPanel } from './JobsPanel';
import { MessagesPanel } from './MessagesPanel';
import { PaymentsPanel } from './PaymentsPanel';
import { ReportsPanel } from './ReportsPanel';
import { UsersPanel } from './UsersPanel';

// Its own chunk: the console is near its page weight budget.
const PayoutsPanel = lazy(async () => ({ default: (await import('./PayoutsPanel')).PayoutsPanel }));

const TABS: Record<ConsoleArea, { label: string; content: () => ReactNode }> = {
  reports: { label: 'Reports', content: () => <ReportsPanel /> },
  users: { label: 'Users', content: () => <UsersPanel /> },
  payments: { label: 'Payments', content: () => <PaymentsPanel /> },
  payouts: { label: 'Payouts', content: () => <Suspense fallback={<PageSpinner />}><PayoutsPanel /></Suspense> },
  featured: { label: 'Featured', content: () => <FeaturedPanel /> },
  channels: { label: 'Channels', content: () => <ChannelsPanel /> },
  messages: { label: 'System messages', content: () => <MessagesPanel /> },
  chat: { label: 'Chat filter', content: () => <PlatformChatFilter /> },
  outbox: { label: 'Outbox', content: () => <Outbox source="console" /> },
  audit: { label: 'Audit log', content: () => <AuditPanel /> },
  jobs: { label: 'Jobs', content: () => <JobsPanel /> },
};

export function ConsolePage() {
  const session = useSession();
  const areas = consoleAreas(session.user);
  const [chosen, setChosen] = useState<ConsoleArea | null>(null);
  if (session.isPending) return <PageSpinner />;
  if (areas.length === 0) return <NotFoundPage />;
  const current = chosen && areas.includes(chosen) ? chosen : areas[0]!;
  return (
    <Page title="Console">
      <Tabs
        label="Console"
        wrap
        value={current}
        onValueChange={setChosen}
        tabs={areas.map((area) => ({ value: area, label: TABS[area].label, content: area === current ? TABS[area].content() : null }))}
      />
    </Page>
  );
}
