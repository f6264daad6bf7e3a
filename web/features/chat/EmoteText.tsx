/** A chat line's text with its emotes drawn where it says `:code:`. */
import { splitEmotes } from '../../../common/rules/emotes';
import styles from './ChatLog.module.css';

export function EmoteText({ text, emotes }: { text: string; emotes: Readonly<Record<string, string>> | undefined }) {
  if (!emotes) return <>{text}</>;
  return (
    <>
      {splitEmotes(text, emotes).map((part, i) =>
        'code' in part ? <img key={i} className={styles.emote} src={part.url} alt={`:${part.code}:`} title={`:${part.code}:`} width={28} height={28} /> : part.text,
      )}
    </>
  );
}
