import { useEffect, useState } from 'react';

/** The current time, moved on every half minute so "5m ago" stays right while the list is open. */
export function useNow(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}
