import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The dashboard is built into dashboard/dist and served by the API process (src/routes/dashboard-app.ts).
export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Hashed names under /assets/ are served with a year-long immutable cache.
    assetsDir: 'assets',
    sourcemap: false,
    target: 'es2022',
  },
  server: {
    // `npx vite dashboard` for front-end work against a running server on :3000.
    proxy: { '/dashboard/api': 'http://127.0.0.1:3000', '/v1': 'http://127.0.0.1:3000' },
  },
});
