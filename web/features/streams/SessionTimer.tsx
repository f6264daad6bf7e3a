import { useEffect, useState } from 'react';
import { sessionClock } from './session-timer';

export function SessionTimer({ since }: { since: string }) {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const tick = setInterval(() => setNow(new Date()), 1000);
    return () => clearInterval(tick);
  }, []);
  return <time aria-label="Session time">{sessionClock(since, now)}</time>;
}
