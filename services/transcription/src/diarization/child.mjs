// The child process that holds one sherpa-onnx speaker diarizer (DiarizerHost in host.ts forks it).
//
// A child process, not a worker thread: sherpa-onnx ends the whole process with _Exit(-1) on a
// model it dislikes (a missing metadata key, more than two speakers per frame) and on some audio
// (a speaker turn too short for an embedding). The models' metadata is checked before they get
// here, but the audio cases cannot be; here such an exit costs one diarization, not the service.
//
// Plain JavaScript on purpose: a forked process has neither tsx's nor jest's TypeScript transform.
//
// Messages in:  {id, segmentation, embedding, wav, numClusters, threshold, threads}
// Messages out: {id, ok: true, turns: [{start, end, speaker}]} · {id, ok: false, error}
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const sherpa = require('sherpa-onnx-node');

/** The diarizer of the models last used, reused across jobs (loading reads both models). */
let loaded = null;

function diarizer({ segmentation, embedding, numClusters, threshold, threads }) {
  const key = `${segmentation}\n${embedding}\n${threads}`;
  const clustering = { numClusters, threshold };
  if (loaded?.key !== key) {
    loaded = null;
    loaded = {
      key,
      sd: new sherpa.OfflineSpeakerDiarization({
        segmentation: { pyannote: { model: segmentation }, numThreads: threads, debug: 0 },
        embedding: { model: embedding, numThreads: threads, debug: 0 },
        clustering,
        minDurationOn: 0.3,
        minDurationOff: 0.5,
      }),
    };
  } else {
    loaded.sd.setConfig({ clustering });
  }
  return loaded.sd;
}

process.on('message', (message) => {
  const { id } = message;
  try {
    const sd = diarizer(message);
    const wave = sherpa.readWave(message.wav);
    if (wave.sampleRate !== sd.sampleRate)
      throw new Error(`the audio is ${wave.sampleRate} Hz but the segmentation model wants ${sd.sampleRate} Hz`);
    const turns = sd.process(wave.samples).map((t) => ({ start: t.start, end: t.end, speaker: t.speaker }));
    process.send({ id, ok: true, turns });
  } catch (error) {
    process.send({ id, ok: false, error: error instanceof Error ? error.message : String(error) });
  }
});
