import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

// The gateway serves web/dist and answers /api; in `vite dev` the API is proxied to a running
// `npm start` (API_ORIGIN, default http://localhost:3000).
export default defineConfig({
  plugins: [react(), tailwindcss()],
  build: {
    // scripts/bench-bundle.mjs reads the manifest to measure the initial JavaScript per screen.
    manifest: true,
    sourcemap: false,
  },
  server: {
    proxy: { '/api': process.env.API_ORIGIN ?? 'http://localhost:3000' },
  },
});
