import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useSkinPath } from '../../app/skin';

/** Sends a guest who tried to act to the login page, with the way back to where they were. */
export function useSendToLogin(): () => void {
  const navigate = useNavigate();
  const location = useLocation();
  const skinPath = useSkinPath();
  return useCallback(() => {
    const redirect = encodeURIComponent(location.pathname + location.search);
    void navigate(`${skinPath('/user/login')}?redirect=${redirect}`);
  }, [navigate, location.pathname, location.search, skinPath]);
}
