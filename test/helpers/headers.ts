/** A response header the test relies on: fails the test with its name when the response lacks it. */
export function headerOf(res: { headers: Record<string, string | string[] | undefined> }, name: string): string {
  const value = res.headers[name.toLowerCase()];
  if (typeof value !== 'string') throw new Error(`the response has no "${name}" header`);
  return value;
}

/** The Location header of a redirect (or a created resource). */
export const locationOf = (res: { headers: Record<string, string | string[] | undefined> }): string =>
  headerOf(res, 'location');
