/**
 * `npx tsx scripts/check-engines.ts`: whether every locked package accepts every Node version that
 * package.json's `engines.node` promises (npm only warns, EBADENGINE, when one does not). Exits 1
 * and names the packages that would refuse a promised version.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

interface Semver {
  satisfies(version: string, range: string): boolean;
}
interface LockedPackage {
  version?: string;
  dev?: boolean;
  engines?: { node?: string } | string[];
}

const semver = createRequire(import.meta.url)('semver') as Semver;
const promised = (JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string } }).engines.node;
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, LockedPackage> };

// Every release line's early, middle and late minors: engines ranges bound on majors and minors.
const versions: string[] = [];
for (let major = 18; major <= 30; major++) for (let minor = 0; minor <= 40; minor++) versions.push(`${major}.${minor}.0`, `${major}.${minor}.99`);
const promisedVersions = versions.filter((v) => semver.satisfies(v, promised));

const refusing: string[] = [];
let checked = 0;
for (const [where, pkg] of Object.entries(lock.packages)) {
  const range = where && !Array.isArray(pkg.engines) ? pkg.engines?.node : undefined;
  if (!range) continue;
  checked += 1;
  const refused = promisedVersions.filter((v) => !semver.satisfies(v, range));
  if (refused.length > 0) {
    refusing.push(`${where.replace(/^.*node_modules\//, '')}@${pkg.version ?? '?'}${pkg.dev ? ' (dev)' : ''} wants ${range}, refuses e.g. ${refused[0]}`);
  }
}

console.log(`engines.node "${promised}": ${checked} locked packages declare engines`);
if (refusing.length > 0) {
  console.log(refusing.join('\n'));
  process.exit(1);
}
console.log('every one accepts every promised version');
