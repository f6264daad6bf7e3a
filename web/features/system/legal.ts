/** The skin's legal texts: markdown files served from web/public, rendered with marked. */
import { useQuery } from '@tanstack/react-query';
import type { Skin } from '../../../common/skins';
import { systemKeys } from './api';

export type LegalDoc = 'terms' | 'privacy';

function docUrl(doc: LegalDoc, skin: Skin): string {
  return doc === 'terms' ? `/terms/${skin.id}.md` : '/legal/privacy.md';
}

async function fetchLegalHtml(doc: LegalDoc, skin: Skin): Promise<string> {
  const response = await fetch(docUrl(doc, skin));
  if (!response.ok) throw new Error(`Could not load ${doc} (${response.status})`);
  const markdown = (await response.text()).replaceAll('{{skin}}', skin.name).replaceAll('{{email}}', skin.supportEmail);
  const { marked } = await import('marked');
  return marked.parse(markdown, { async: false });
}

/** Our own static markdown, so its HTML is trusted. */
export function useLegalHtml(doc: LegalDoc, skin: Skin, enabled = true) {
  return useQuery({
    queryKey: [...systemKeys.all, 'legal', doc, skin.id],
    queryFn: () => fetchLegalHtml(doc, skin),
    enabled,
    staleTime: Infinity,
  });
}
