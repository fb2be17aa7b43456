import { defineConfig, type PluginOption } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { visualizer } from 'rollup-plugin-visualizer';

// `BUNDLE_REPORT=1 npm run build -w web` also writes web/dist/bundle-report.html, a treemap of
// what each chunk holds (gzip sizes), to see what the sign-in page and the shell pull in. Off by
// default so an ordinary build is unchanged.
const bundleReport: PluginOption[] = process.env.BUNDLE_REPORT
  ? [visualizer({ filename: 'dist/bundle-report.html', template: 'treemap', gzipSize: true, sourcemap: false })]
  : [];

// The gateway serves web/dist and answers /api; in `vite dev` the API is proxied to a running
// `npm start` (API_ORIGIN, default http://localhost:3000).
export default defineConfig({
  plugins: [react(), tailwindcss(), ...bundleReport],
  build: {
    // scripts/bench-bundle.mjs reads the manifest to measure the initial JavaScript per screen.
    manifest: true,
    sourcemap: false,
  },
  server: {
    proxy: { '/api': process.env.API_ORIGIN ?? 'http://localhost:3000' },
  },
});
