/**
 * The broadcaster's tip menu, before the show and during it: a row per action (what the viewer gets and
 * its price in coins), up to TIP_MENU.itemsMax, saved together; saving none removes the menu.
 */
import { Suspense, useEffect } from 'react';
import { lazyPage } from '../../app/lazy-page';
import { failureMessage } from '../../api/field-errors';
import { Alert } from '../../ui/Alert';
import { Section } from '../../ui/Page';
import { Spinner } from '../../ui/Spinner';
import { useTipMenu } from './menu-api';

// The rows and their checks (the contract's tip schemas) arrive while the menu is read.
const loadForm = () => import('./TipMenuForm');
const TipMenuForm = lazyPage(loadForm, 'TipMenuForm');

export function TipMenuEditor({ userId }: { userId: number }) {
  const menu = useTipMenu(userId);
  useEffect(() => void loadForm(), []);
  return (
    <Section
      title="Tip menu"
      description="Actions viewers can tip for, each at its price. A viewer picks one in the tip list; the chat names it and it joins your queue of requests."
    >
      {menu.isPending ? (
        <Spinner />
      ) : menu.isError ? (
        <Alert>{failureMessage(menu.error)}</Alert>
      ) : (
        <Suspense fallback={<Spinner />}>
          <TipMenuForm userId={userId} items={menu.data} />
        </Suspense>
      )}
    </Section>
  );
}
