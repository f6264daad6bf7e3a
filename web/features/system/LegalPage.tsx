import { useSkin } from '../../app/skin';
import { Spinner } from '../../ui/Spinner';
import { useLegalHtml } from './legal';
import type { LegalDoc } from './legal';
import prose from '../../ui/prose.module.css';
import styles from './LegalPage.module.css';

export function LegalPage({ doc }: { doc: LegalDoc }) {
  const skin = useSkin();
  const html = useLegalHtml(doc, skin);
  return (
    <article className={styles.page}>
      {html.isPending && <Spinner label="Loading" size="lg" />}
      {html.isError && <p role="alert">This document could not be loaded. Please try again later.</p>}
      {html.data && <div className={prose.prose} dangerouslySetInnerHTML={{ __html: html.data }} />}
    </article>
  );
}
