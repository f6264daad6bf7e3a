import { isRouteErrorResponse, useRouteError } from 'react-router';
import { SKINS, skinFromPath } from '../../common/skins';
import { Notice } from '../ui/Notice';
import { buttonClass } from '../ui/Button';

/** Last resort when a page throws: a plain page with a full reload link (the router may be broken). */
export function ErrorPage() {
  const error = useRouteError();
  const skin = SKINS[skinFromPath(window.location.pathname)];
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <Notice title="Page not found" art="404" actions={<a className={buttonClass({})} href={skin.prefix || '/'}>Go to the home page</a>} />
    );
  }
  console.error(error);
  return (
    <Notice title="Something went wrong" art="!" actions={<a className={buttonClass({})} href={window.location.href}>Reload the page</a>}>
      We hit an unexpected problem showing this page. Reloading usually fixes it.
    </Notice>
  );
}
