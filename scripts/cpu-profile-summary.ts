// `npx tsx scripts/cpu-profile-summary.ts <file.cpuprofile> [top]`: where a profiled run (`node --cpu-prof`, or
// the inspector's Profiler) spent its time, as self time by module (npm package, or the project's own folder) and by function.
// Made for the gateway benchmark: run it as
//   BENCH_SETUPS=all-in-one BENCH_CONNECTIONS=20 BENCH_CPU_PROFILE=/tmp/gateway.cpuprofile npm run bench:gateway
// then divide a row's milliseconds by the requests served to get its cost per request.
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, topArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: tsx scripts/cpu-profile-summary.ts <file.cpuprofile> [top]');
  process.exit(1);
}
const top = Number(topArg ?? 25);
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));

/** `fastify`, `@fastify/helmet`, `kit/src`, `node:internal`, or a V8 bucket such as (garbage collector). */
function moduleOf(url: string, name: string): string {
  if (!url) return name.startsWith('(') ? name : '(native)';
  const inPackage = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (inPackage) return inPackage[1]!;
  if (url.startsWith('node:internal/')) return url.split('/').slice(0, 3).join('/').replace(/\.js$/, '');
  if (url.startsWith('node:')) return url;
  const own = /\/(packages\/[^/]+|services\/[^/]+|gateway|scripts)\//.exec(url);
  return own ? own[1]! : url;
}

const selfByModule = new Map<string, number>();
const selfByFunction = new Map<string, number>();
let total = 0;
profile.samples.forEach((id, index) => {
  const node = byId.get(id);
  const delta = profile.timeDeltas[index] ?? 0;
  // Waiting is not a cost.
  if (!node || node.callFrame.functionName === '(idle)') return;
  const { functionName, url, lineNumber } = node.callFrame;
  const module = moduleOf(url, functionName);
  const fn = `${functionName || '(anonymous)'} ${module}${url ? `:${lineNumber + 1}` : ''}`;
  selfByModule.set(module, (selfByModule.get(module) ?? 0) + delta);
  selfByFunction.set(fn, (selfByFunction.get(fn) ?? 0) + delta);
  total += delta;
});

const rows = (map: Map<string, number>) =>
  [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, micros]) => ({
      name,
      'self ms': Math.round(micros / 1000),
      share: `${((micros / total) * 100).toFixed(1)} %`,
    }));

console.log(`${file}: ${Math.round(total / 1000)} ms sampled`);
console.log('\nSelf time by module');
console.table(rows(selfByModule));
console.log('\nSelf time by function');
console.table(rows(selfByFunction));
