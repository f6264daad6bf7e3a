/**
 * The tip menu's rows, saved together. TipMenuEditor.tsx loads this while it reads the menu: the contract's
 * checks of a row (common/api/tips, which brings the wallet's schemas along) stay out of the dashboard's
 * first load.
 */
import { useState } from 'react';
import type { FormEvent } from 'react';
import { TIP_MENU } from '../../../common/api/tips';
import type { TipMenuItem } from '../../../common/api/tips';
import { MSG } from '../../../common/messages';
import { failureMessage, serverFieldErrors } from '../../api/field-errors';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { PlusIcon } from '../../ui/icons';
import { TextField } from '../../ui/TextField';
import { useToast } from '../../ui/Toast';
import { useRowDrafts } from '../../ui/use-row-drafts';
import { useSaveTipMenu } from './menu-api';
import { draftErrors, draftsOf, emptyDraft, hasDraftErrors, itemsToSave, mayAddDraft, refusedDrafts, sameDrafts } from './menu-drafts';
import type { MenuDraft, RowErrors } from './menu-drafts';
import styles from './tip-menu.module.css';

export function TipMenuForm({ userId, items }: { userId: number; items: TipMenuItem[] }) {
  const save = useSaveTipMenu(userId);
  const toast = useToast();
  const { drafts, setDrafts, errors, message, setMessage, edit, remove, showErrors } = useRowDrafts<MenuDraft, keyof RowErrors & string>(() => draftsOf(items));
  const [seen, setSeen] = useState(items);
  // The menu saved elsewhere (the other dashboard layout, another tab) replaces rows nobody touched.
  if (seen !== items) {
    setSeen(items);
    if (sameDrafts(drafts, draftsOf(seen))) setDrafts(draftsOf(items));
  }
  const unchanged = sameDrafts(drafts, draftsOf(items));

  const add = () => setDrafts((rows) => (mayAddDraft(rows) ? [...rows, emptyDraft()] : rows));

  function submit(event: FormEvent) {
    event.preventDefault();
    setMessage(null);
    const checked = draftErrors(drafts);
    showErrors(drafts, checked);
    if (hasDraftErrors(checked) || unchanged) return;
    const sent = drafts;
    save.mutate(itemsToSave(sent), {
      onSuccess: (saved) => {
        setSeen(saved);
        setDrafts(draftsOf(saved));
        toast({ title: MSG.menuSaved, tone: 'success' });
      },
      onError: (error) => {
        const refusal = refusedDrafts(serverFieldErrors(error), sent.length);
        if (hasDraftErrors(refusal)) showErrors(sent, refusal);
        else setMessage(failureMessage(error));
      },
    });
  }

  return (
    <form className={styles.form} onSubmit={submit} noValidate aria-label="Tip menu">
      {drafts.length === 0 ? (
        <p className={styles.empty}>No actions on your menu. Add one, say “Sing a song” for 50 coins: viewers tip its price to ask for it.</p>
      ) : (
        <ol className={styles.drafts}>
          {drafts.map((draft, i) => {
            const rowErrors = errors.rows[draft.key] ?? {};
            return (
              <li key={draft.key}>
                <fieldset className={styles.draft}>
                  <legend className="visually-hidden">Action {i + 1}</legend>
                  <div className={styles.draftFields}>
                    <span className={styles.draftNumber} aria-hidden="true">
                      {i + 1}
                    </span>
                    <TextField
                      label="Action"
                      maxLength={TIP_MENU.labelMax}
                      placeholder="What the viewer gets"
                      value={draft.label}
                      onChange={(e) => edit(draft.key, 'label', e.target.value)}
                      error={rowErrors.label}
                    />
                    <TextField
                      label="Coins"
                      className={styles.priceInput}
                      type="number"
                      inputMode="numeric"
                      min={1}
                      step={1}
                      value={draft.price}
                      onChange={(e) => edit(draft.key, 'price', e.target.value)}
                      error={rowErrors.price}
                    />
                    <Button variant="ghost" size="sm" className={styles.removeButton} aria-label={`Remove action ${i + 1}`} onClick={() => remove(draft.key)}>
                      Remove
                    </Button>
                  </div>
                </fieldset>
              </li>
            );
          })}
        </ol>
      )}
      <Alert>{errors.list ?? message}</Alert>
      <div className={styles.formActions}>
        <Button type="submit" loading={save.isPending} disabled={unchanged}>
          Save menu
        </Button>
        <Button variant="secondary" icon={<PlusIcon size={16} />} disabled={!mayAddDraft(drafts)} onClick={add}>
          Add an action
        </Button>
        <span className={styles.count}>
          {drafts.length} of {TIP_MENU.itemsMax}
        </span>
      </div>
    </form>
  );
}
