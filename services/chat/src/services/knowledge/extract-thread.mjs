// The entry of the knowledge extractor thread (isolated.ts starts one per file).
//
// Plain JavaScript on purpose: a worker thread starts a fresh module loader, which has neither
// tsx's nor jest's (tests) TypeScript transform. tsx's API loads the TypeScript entry in this thread
// alone, the same way under every one of them. Compiled (`npm run build`, what production runs),
// this file's place in dist/ is taken by extract-worker.ts itself, so no tsx is loaded there.
import { tsImport } from 'tsx/esm/api';

await tsImport('./extract-worker.ts', import.meta.url);
