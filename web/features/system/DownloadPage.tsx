import { useSkin, useSkinPath } from '../../app/skin';
import { ButtonLink } from '../../ui/Button';
import { DownloadIcon } from '../../ui/icons';
import { Notice } from '../../ui/Notice';

/** /download: the operator's app listings when configured, otherwise how to use the site on a phone. */
export function DownloadPage() {
  const skin = useSkin();
  const skinPath = useSkinPath();
  const stores = [
    { label: 'Download on the App Store', href: skin.links.appStore },
    { label: 'Get it on Google Play', href: skin.links.playStore },
  ].filter((store): store is { label: string; href: string } => Boolean(store.href));
  return (
    <Notice
      title={`${skin.name} on your phone`}
      art={<DownloadIcon size={56} />}
      actions={<ButtonLink to={skinPath('/channel/group')}>Start watching</ButtonLink>}
    >
      {stores.length > 0 ? (
        <ul aria-label="Get the app">
          {stores.map((store) => (
            <li key={store.href}>
              <a href={store.href} target="_blank" rel="noreferrer">
                {store.label}
              </a>
            </li>
          ))}
        </ul>
      ) : (
        <p>
          {skin.name} works in the browser of your phone: open this site there and add it to your home screen to come back in one tap.
        </p>
      )}
    </Notice>
  );
}
