/** A user id from a route segment or a query value; anything else is no id. */
export function parseUserId(value: string | null | undefined): number | null {
  if (!value || !/^\d{1,15}$/.test(value)) return null;
  const id = Number(value);
  return id > 0 ? id : null;
}
