import { useSession, useSendToLogin } from '../accounts';

/**
 * The click of a social switch (follow, bell): a guest goes to log in (or `onGuest`); a signed-in
 * click sends `vars`. The switch already moved, so a second click waits for the first answer.
 */
export function useToggleClick<V>(toggle: { mutate: (vars: V) => void; isPending: boolean }, onGuest?: () => void): (vars: V) => void {
  const { isLoggedIn } = useSession();
  const sendToLogin = useSendToLogin();
  return (vars) => {
    if (!isLoggedIn) return (onGuest ?? sendToLogin)();
    if (!toggle.isPending) toggle.mutate(vars);
  };
}
