import { describe, expect, it } from 'vitest';
import { TIP_MENU } from '../../../common/api/tips';
import { MSG } from '../../../common/messages';
import { draftErrors, draftsOf, emptyDraft, hasDraftErrors, itemsToSave, mayAddDraft, refusedDrafts, sameDrafts } from './menu-drafts';
import type { MenuDraft } from './menu-drafts';

const item = (item_id: number, label: string, price: number) => ({ item_id, label, price });
const draft = (label: string, price: string): MenuDraft => ({ ...emptyDraft(), label, price });
const contents = (drafts: readonly MenuDraft[]) => drafts.map(({ label, price }) => ({ label, price }));

describe('menu drafts', () => {
  it('are the actions of the menu, in order, each with a key of its own', () => {
    const drafts = draftsOf([item(1, 'Sing a song', 50), item(2, 'Dance', 100)]);
    expect(contents(drafts)).toEqual([
      { label: 'Sing a song', price: '50' },
      { label: 'Dance', price: '100' },
    ]);
    expect(new Set(drafts.map((row) => row.key)).size).toBe(2);
  });

  it(`stop at ${TIP_MENU.itemsMax} rows`, () => {
    expect(mayAddDraft(Array.from({ length: TIP_MENU.itemsMax - 1 }, emptyDraft))).toBe(true);
    expect(mayAddDraft(Array.from({ length: TIP_MENU.itemsMax }, emptyDraft))).toBe(false);
  });

  it('tell unchanged rows from edited, added or removed ones', () => {
    const items = [item(1, 'Sing a song', 50)];
    expect(sameDrafts(draftsOf(items), draftsOf(items))).toBe(true);
    expect(sameDrafts([{ ...draftsOf(items)[0]!, price: '60' }], draftsOf(items))).toBe(false);
    expect(sameDrafts([...draftsOf(items), emptyDraft()], draftsOf(items))).toBe(false);
    expect(sameDrafts([], draftsOf(items))).toBe(false);
    expect(sameDrafts([], [])).toBe(true);
  });
});

describe('checking and sending drafts', () => {
  it('send trimmed labels and whole coins', () => {
    expect(itemsToSave([draft('  Sing a song ', '50')])).toEqual([{ label: 'Sing a song', price: 50 }]);
    expect(itemsToSave([])).toEqual([]);
  });

  it("say what each row lacks with the contract's texts", () => {
    const errors = draftErrors([draft('', ''), draft('Dance', '100'), draft('   ', '2.5'), draft('x'.repeat(TIP_MENU.labelMax + 1), '0')]);
    expect(errors.rows).toEqual([
      { label: MSG.menuLabelNeeded, price: MSG.coinsNumber },
      {},
      { label: MSG.menuLabelNeeded, price: MSG.coinsWhole },
      { label: `Must be at most ${TIP_MENU.labelMax} characters`, price: MSG.coinsAtLeastOne },
    ]);
    expect(hasDraftErrors(errors)).toBe(true);
    expect(hasDraftErrors(draftErrors([draft('Sing a song', ' 50 ')]))).toBe(false);
    expect(hasDraftErrors(draftErrors([]))).toBe(false);
  });

  it("put the server's messages under the rows they name, and the menu's above them", () => {
    const refusal = refusedDrafts({ 'items.1.label': MSG.menuLabelNeeded, 'items.0.price': MSG.coinsAtLeastOne, items: 'At most 20 actions on a menu' }, 2);
    expect(refusal).toEqual({ rows: [{ price: MSG.coinsAtLeastOne }, { label: MSG.menuLabelNeeded }], list: 'At most 20 actions on a menu' });
    expect(hasDraftErrors(refusedDrafts({ stream_id: 'Must be a stream id' }, 1))).toBe(false);
  });
});
