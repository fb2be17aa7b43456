// `npm run bench:revocation`: what the session check (the verifier's list of ended sessions) costs.
// A small server (the kit's guard and error format, one route that needs a session) answers
// authenticated requests with the check on and off, alternately, under autocannon: 20 connections,
// a few seconds per run (BENCH_DURATION_S), in its own process so the load generator does not share
// the server's event loop. The list holds 10,000 ended sessions, as after a busy day. 127.0.0.1 only.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { ALL_ROLES } from '@earshot/contracts';
import { TokenSigner, TokenVerifier, authGuard, buildServer, denialUntil, identityOf } from '@earshot/kit';
import { testSigningKeys } from '@earshot/kit/testing';

const require = createRequire(import.meta.url);
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 4);
const CONNECTIONS = 20;
const ROUNDS = 2;
const ENDED_SESSIONS = 10_000;

async function autocannon(url: string, token: string): Promise<number> {
  const cli = join(dirname(require.resolve('autocannon/package.json')), 'autocannon.js');
  const args = [
    cli,
    '-c',
    String(CONNECTIONS),
    '-d',
    String(DURATION_S),
    '-j',
    '-n',
    '-H',
    `authorization=Bearer ${token}`,
    url,
  ];
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      stdio: ['ignore', 'pipe', 'inherit'],
      timeout: (DURATION_S + 30) * 1000,
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`autocannon exited with ${code}`))));
  });
  const json = JSON.parse(output) as { requests: { average: number }; non2xx: number; errors: number };
  if (json.non2xx || json.errors)
    throw new Error(
      `${json.non2xx} non-2xx answers and ${json.errors} errors: the bench is not measuring what it should`,
    );
  return json.requests.average;
}

const signer = new TokenSigner(testSigningKeys(), 900);
const verifier = new TokenVerifier(900).trust(signer.jwks());
verifier.endSessions(
  Array.from({ length: ENDED_SESSIONS }, () => randomUUID()),
  denialUntil(900),
);

const app = buildServer({ logLevel: 'silent', name: 'bench' });
await app.register(authGuard, { tokens: verifier });
app.get('/api/bench', { config: { access: ALL_ROLES } }, async (request) => ({ user: identityOf(request).userId }));
await app.listen({ host: '127.0.0.1', port: 0 });
const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/bench`;
const token = await signer.sign({
  userId: randomUUID(),
  companyId: randomUUID(),
  role: 'USER',
  email: 'bench@earshot.test',
});

const figures = { on: [] as number[], off: [] as number[] };
try {
  await autocannon(url, token); // warm-up: JIT and connection setup
  for (let round = 0; round < ROUNDS; round++) {
    for (const mode of round % 2 === 0 ? (['on', 'off'] as const) : (['off', 'on'] as const)) {
      verifier.checkSessions = mode === 'on';
      figures[mode].push(await autocannon(url, token));
    }
  }
} finally {
  await app.close();
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const on = mean(figures.on);
const off = mean(figures.off);
console.log(
  `Session check (${ENDED_SESSIONS} ended sessions listed), ${CONNECTIONS} connections, ${ROUNDS} × ${DURATION_S} s per mode:`,
);
console.log(`  check on:  ${on.toFixed(0)} requests/s  (${figures.on.map((v) => v.toFixed(0)).join(', ')})`);
console.log(`  check off: ${off.toFixed(0)} requests/s  (${figures.off.map((v) => v.toFixed(0)).join(', ')})`);
console.log(`  on/off:    ${(on / off).toFixed(3)} (goal: within 5 %)`);
