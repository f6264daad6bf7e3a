/**
 * The active users' names, kept in memory by each instance for the user search (decision 0075): names that
 * start with the text, names that contain it elsewhere, and names within trigram similarity of it, as
 * PostgreSQL's pg_trgm would find them, without a statement per stage. Every change to a name or to an
 * account's standing takes the next change number in commit order (migration 0049); before answering,
 * a search reads the rows past the last number this instance has seen (one indexed statement, shared by
 * the searches that arrive while it runs), so a sign-up or a suspension on any instance shows at once.
 */
import { asc, gt, sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db/client';
import { preparedStatement } from '../../platform/db/prepared';
import { people } from '../accounts';

/** pg_trgm's `similarity_threshold` as PostgreSQL ships it: what `%` means. */
const SIMILARITY_THRESHOLD = 0.3;

/**
 * pg_trgm's trigrams of a text: lower-cased, cut into words at anything that is not a letter or digit,
 * each word padded with two spaces before and one after, every run of three characters, each once.
 */
export function trigramsOf(text: string): Set<string> {
  const found = new Set<string>();
  for (const padded of paddedWordsOf(text)) {
    for (let i = 0; i + 3 <= padded.length; i += 1) found.add(padded.slice(i, i + 3));
  }
  return found;
}

/** The words of a text as pg_trgm pads them before cutting them into trigrams. */
function paddedWordsOf(text: string): string[] {
  return text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((word) => word !== '').map((word) => `  ${word} `);
}

/** Every run of three characters of a lower-cased name: a name contains a text only if it has all of the text's. */
function substringsOf(name: string): Set<string> {
  const found = new Set<string>();
  for (let i = 0; i + 3 <= name.length; i += 1) found.add(name.slice(i, i + 3));
  return found;
}

/** One of 32 bits for a run of three characters: a name's signature has the bits of all its runs and trigrams. */
function bitOf(run: string): number {
  const code = run.charCodeAt(0) * 961 + run.charCodeAt(1) * 31 + run.charCodeAt(2);
  return 1 << (Math.imul(code, 0x9e3779b1) >>> 27);
}

function signatureOf(runs: Iterable<string>): number {
  let signature = 0;
  for (const run of runs) signature |= bitOf(run);
  return signature;
}

interface Entry {
  id: number;
  name: string;
  /** How many pg_trgm trigrams the name has. */
  grams: number;
  /** Its place in `slots`: the postings name entries by it. */
  slot: number;
  /**
   * Its padded words end to end: it contains each of its trigrams and, besides them, only runs ending in
   * two spaces or of three, which no trigram is.
   */
  padded: string;
  /** The bits of its trigrams and runs (bitOf): a run whose bit is not set is not in the name. */
  signature: number;
}

/** Slots by key, each list without repeats; a changed name leaves the lists of its old keys. */
class Postings {
  private readonly lists = new Map<string, number[]>();
  add(keys: Iterable<string>, slot: number) {
    for (const key of keys) {
      const list = this.lists.get(key);
      if (list) list.push(slot);
      else this.lists.set(key, [slot]);
    }
  }
  remove(keys: Iterable<string>, slot: number) {
    for (const key of keys) {
      const list = this.lists.get(key);
      const at = list?.indexOf(slot) ?? -1;
      if (list && at >= 0) list.splice(at, 1);
    }
  }
  of(key: string): readonly number[] {
    return this.lists.get(key) ?? [];
  }
}

/** Compares as PostgreSQL's "C" collation does for the names' alphabet (ASCII letters, digits, `_` and `.`). */
const byName = (a: Entry, b: Entry) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** More changes than this in one read are sorted in at once rather than inserted one by one (the first read loads everyone). */
const SORT_IN_AT_ONCE = 64;

/** A user's name and standing as a change left them. */
export interface NameChange {
  id: number;
  name: string;
  active: boolean;
  changeNo: number;
}

/** Reads a page's people by id and, at once, the changes to names past `after`. */
export type ReadPage<T> = (ids: number[], after: number) => Promise<{ listed: T[]; changes: NameChange[] }>;

export interface NameMatches {
  /** The ids of the page, in the order the search shows them. */
  ids: number[];
  total: number;
}

export function createNameIndex(db: Executor, options: { totalCap: number; typoMinChars: number }) {
  const entries = new Map<number, Entry>();
  /** Entries by slot; a removed entry's slot is given to the next one. */
  const slots: Array<Entry | undefined> = [];
  const freeSlots: number[] = [];
  /** The entries in name order (names are unique, lower-cased). */
  let ordered: Entry[] = [];
  /** The change number each user was last seen at, active or not. */
  const seenAt = new Map<number, number>();
  const substrings = new Postings();
  const trigrams = new Postings();
  /**
   * Per slot, side by side so that a typo search reads no entry until a name is likely: its trigram count
   * (high byte; a username has at most 32) and, while a search counts them, the trigrams it shares with the
   * text (low byte, reset after each); its signature; and the slots a search touched.
   */
  let tally = new Uint16Array(1024);
  let signatures = new Int32Array(1024);
  let touched = new Int32Array(1024);
  let caughtUpTo = 0;

  const changesAfter = preparedStatement<{ after: number }, NameChange[]>(
    db.select({ id: people.id, name: sql<string>`lower(${people.username})`, active: sql<boolean>`${people.accountStatus} = 'active'`, changeNo: people.changeNo })
      .from(people).where(gt(people.changeNo, sql.placeholder('after'))).orderBy(asc(people.changeNo)),
    'social_name_changes',
  );

  /** Where `name` is, or would go, in `ordered`. */
  function positionOf(name: string): number {
    let low = 0;
    let high = ordered.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (ordered[middle]!.name < name) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  function remove(id: number) {
    const entry = entries.get(id);
    if (!entry) return;
    entries.delete(id);
    ordered.splice(positionOf(entry.name), 1);
    substrings.remove(substringsOf(entry.name), entry.slot);
    trigrams.remove(trigramsOf(entry.name), entry.slot);
    slots[entry.slot] = undefined;
    freeSlots.push(entry.slot);
  }

  function add(id: number, name: string, inOrder: boolean): Entry {
    const grams = trigramsOf(name);
    const slot = freeSlots.pop() ?? slots.length;
    const runs = substringsOf(name);
    const entry = { id, name, grams: grams.size, slot, padded: paddedWordsOf(name).join(''), signature: signatureOf(grams) | signatureOf(runs) };
    entries.set(id, entry);
    slots[slot] = entry;
    if (slot < tally.length) {
      tally[slot] = grams.size << 8;
      signatures[slot] = entry.signature;
    }
    if (inOrder) ordered.splice(positionOf(name), 0, entry);
    substrings.add(runs, slot);
    trigrams.add(grams, slot);
    return entry;
  }

  /** Applies changes read from the users table, oldest first. */
  function apply(rows: readonly NameChange[]) {
    const atOnce = rows.length > SORT_IN_AT_ONCE;
    const added: Entry[] = [];
    for (const row of rows) {
      // Two reads may overlap: a row older than what was seen of its user is not applied.
      if ((seenAt.get(row.id) ?? 0) >= row.changeNo) continue;
      seenAt.set(row.id, row.changeNo);
      remove(row.id);
      if (row.active) added.push(add(row.id, row.name, !atOnce));
      caughtUpTo = Math.max(caughtUpTo, row.changeNo);
    }
    if (atOnce && added.length > 0) ordered = [...ordered, ...added].sort(byName);
    if (tally.length < slots.length) {
      touched = new Int32Array(slots.length * 2);
      tally = Uint16Array.from({ length: slots.length * 2 }, (_, slot) => (slots[slot]?.grams ?? 0) << 8);
      signatures = Int32Array.from({ length: slots.length * 2 }, (_, slot) => slots[slot]?.signature ?? 0);
    }
  }

  // Everyone, once, on the first search (the searches that arrive meanwhile wait for the same read).
  let loaded: Promise<void> | null = null;
  const load = () => (loaded ??= changesAfter({ after: 0 }).then(apply, (error: unknown) => {
    loaded = null;
    throw error;
  }));

  /** Names that start with `term`, in name order. */
  function* startingWith(term: string) {
    for (let i = positionOf(term); i < ordered.length && ordered[i]!.name.startsWith(term); i += 1) yield ordered[i]!;
  }

  /** Names that contain `term` but do not start with it, in name order. */
  function containingElsewhere(term: string): Entry[] {
    const keys = [...substringsOf(term)];
    // A text shorter than three is checked against every name.
    if (keys.length === 0) return ordered.filter((entry) => entry.name.includes(term) && !entry.name.startsWith(term));
    // The rarest run of three characters narrows the most; the signatures rule out most of the rest without reading a name.
    const rarest = keys.map((key) => substrings.of(key)).reduce((fewest, list) => (list.length < fewest.length ? list : fewest));
    const wanted = signatureOf(keys);
    const found: Entry[] = [];
    for (const slot of rarest) {
      if ((signatures[slot]! & wanted) !== wanted) continue;
      const entry = slots[slot]!;
      if (entry.name.includes(term) && !entry.name.startsWith(term)) found.push(entry);
    }
    return found.sort(byName);
  }

  /**
   * Names within pg_trgm similarity of `term` that do not contain it, most similar first (then by id).
   * similarity = common / (grams + theirs - common) >= 0.3 needs common >= 3·grams/10 (theirs >= common),
   * so a name that qualifies has at least one of the term's rarest `grams - needed + 1` trigrams: only
   * those lists are walked, and the commonest few are checked afterwards on the names still in reach.
   */
  function similarTo(term: string, limit: number, containing: ReadonlySet<Entry>): Entry[] {
    const termGrams = [...trigramsOf(term)];
    const grams = termGrams.length;
    const needed = Math.max(1, Math.ceil((3 * grams) / 10));
    const lists = termGrams.map((gram) => ({ gram, slots: trigrams.of(gram) })).sort((a, b) => a.slots.length - b.slots.length);
    const walked = lists.slice(0, grams - needed + 1);
    const checked = lists.slice(grams - needed + 1).map((list) => ({ gram: list.gram, bit: bitOf(list.gram) }));
    // Locals rather than the closure's (reassigned) arrays: the loops below are most of a typo search.
    const counts = tally;
    const signed = signatures;
    const seen = touched;
    let touchedCount = 0;
    for (const list of walked) {
      const listed = list.slots;
      for (let i = 0; i < listed.length; i += 1) {
        const slot = listed[i]!;
        const was = counts[slot]!;
        if ((was & 0xff) === 0) seen[touchedCount++] = slot;
        counts[slot] = was + 1;
      }
    }
    const scored: Array<{ entry: Entry; similarity: number }> = [];
    for (let i = 0; i < touchedCount; i += 1) {
      const slot = seen[i]!;
      const was = counts[slot]!;
      counts[slot] = was & 0xff00;
      let common = was & 0xff;
      const theirs = was >> 8;
      // In whole numbers: most names share too little even with every unwalked trigram.
      if (13 * (common + checked.length) < 3 * (grams + theirs)) continue;
      // The signature says which unwalked trigrams the name may have.
      const signature = signed[slot]!;
      let possible = 0;
      for (const { bit } of checked) if ((signature & bit) !== 0) possible += 1;
      if (13 * (common + possible) < 3 * (grams + theirs)) continue;
      const entry = slots[slot]!;
      for (const { gram, bit } of checked) if ((signature & bit) !== 0 && entry.padded.includes(gram)) common += 1;
      if (13 * common < 3 * (grams + entry.grams)) continue;
      // pg_trgm computes the similarity as a float4.
      const similarity = Math.fround(common / (grams + entry.grams - common));
      if (similarity >= SIMILARITY_THRESHOLD && !containing.has(entry)) scored.push({ entry, similarity });
    }
    scored.sort((a, b) => b.similarity - a.similarity || a.entry.id - b.entry.id);
    return scored.slice(0, limit).map((s) => s.entry);
  }

  function match(text: string, page: { offset: number; limit: number }): NameMatches {
    const term = text.toLowerCase();
    let leading = 0;
    const found: Entry[] = [];
    // As PostgreSQL paged them: a page that begins under the capped count reads on past the cap.
    for (const entry of startingWith(term)) {
      if (page.offset < options.totalCap && leading >= page.offset && found.length < page.limit) found.push(entry);
      leading += 1;
      if (leading >= options.totalCap && (found.length >= page.limit || page.offset >= options.totalCap)) break;
    }
    leading = Math.min(leading, options.totalCap);
    // As PostgreSQL counted them: the names containing the text elsewhere only while the leading ones are under the cap.
    const elsewhere = leading < options.totalCap ? containingElsewhere(term) : [];
    const rest = Math.min(elsewhere.length, options.totalCap - leading);
    if (found.length < page.limit && rest > 0) {
      const from = Math.max(0, page.offset - leading);
      found.push(...elsewhere.slice(from, from + page.limit - found.length));
    }
    let total = leading + rest;
    if (page.offset === 0 && found.length < page.limit && text.length >= options.typoMinChars) {
      // The page is not full, so it holds every name that contains the text: those the typo stage leaves out.
      const similar = similarTo(term, page.limit - found.length, new Set(found));
      found.push(...similar);
      total += similar.length;
    }
    return { ids: found.map((entry) => entry.id), total };
  }

  return {
    /**
     * A page of the search for `text`: names starting with it, then names containing it elsewhere (both
     * counted up to `totalCap`), then — on the first page, while it is not full, for texts of
     * `typoMinChars` or more — names within trigram similarity. `read` reads the page's people and, in
     * the same statement, the changes past what this instance has seen: when there were some, the
     * search is matched again on the names as they now stand.
     */
    async search<T>(text: string, page: { offset: number; limit: number }, read: ReadPage<T>): Promise<NameMatches & { listed: T[] }> {
      await load();
      for (let attempt = 1; ; attempt += 1) {
        const matches = match(text, page);
        const { listed, changes } = await read(matches.ids, caughtUpTo);
        apply(changes);
        // Under a storm of sign-ups the third answer stands, as of a moment ago.
        if (changes.length === 0 || attempt === 3) return { ...matches, listed };
      }
    },
  };
}

export type NameIndex = ReturnType<typeof createNameIndex>;
