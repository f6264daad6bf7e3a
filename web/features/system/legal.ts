/** The skin's legal and help texts: markdown files served from web/public, rendered with marked. */
import { useQuery } from '@tanstack/react-query';
import type { Skin } from '../../../common/skins';
import { systemKeys } from './api';

export type LegalDoc = 'terms' | 'privacy' | 'help' | 'guidelines' | 'safety';

function docUrl(doc: LegalDoc, skin: Skin): string {
  if (doc === 'terms') return `/terms/${skin.id}.md`;
  return doc === 'privacy' ? '/legal/privacy.md' : `/help/${doc}.md`;
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
