// The image's HEALTHCHECK: one image runs every process, so this asks both liveness addresses on
// PORT (the gateway answers /api/health, a service or the transcription worker /health) and is
// healthy when either says ok. Plain node and its fetch: the slim image has no curl.
const port = process.env.PORT || '3000';
const ask = async (path) => {
  const answer = await fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(4000) });
  const body = answer.ok ? await answer.json() : {};
  if (body.status !== 'ok') throw new Error(`${path}: ${answer.status}`);
};
try {
  await Promise.any([ask('/api/health'), ask('/health')]);
  process.exit(0);
} catch (error) {
  console.error(`unhealthy: ${error.errors?.map((e) => e.message).join(', ') ?? error}`);
  process.exit(1);
}
