// The entry of an export rendering thread (renderer.ts starts one per export).
//
// Plain JavaScript on purpose: a worker thread starts a fresh module loader, which has neither
// tsx's nor jest's (tests) TypeScript transform. tsx's API loads the TypeScript entry in this thread
// alone. Compiled (`npm run build`), this file's place in dist/ is taken by render-worker.ts itself.
import { tsImport } from 'tsx/esm/api';

await tsImport('./render-worker.ts', import.meta.url);
