import { Notice } from '../ui/Notice';
import { buttonClass } from '../ui/Button';

/** Last resort when a page throws: a plain page with a full reload link (the app may be broken). */
export function ErrorPage() {
  return (
    <Notice title="Something went wrong" art="!" actions={<a className={buttonClass({})} href={window.location.href}>Reload the page</a>}>
      We hit an unexpected problem showing this page. Reloading usually fixes it.
    </Notice>
  );
}
