/** Does `version` satisfy a requirement '^M.m.p' or 'M.m.p'? (the only forms a manifest may use) */
export function satisfiesCaret(version: string, requirement: string): boolean {
  const parse = (v: string) => v.replace(/^\^/, '').split('.').map(Number) as [number, number, number];
  const [major, minor, patch] = parse(version);
  const [rMajor, rMinor, rPatch] = parse(requirement);
  if (!requirement.startsWith('^')) return major === rMajor && minor === rMinor && patch === rPatch;
  if (major !== rMajor) return false;
  return minor > rMinor || (minor === rMinor && patch >= rPatch);
}
