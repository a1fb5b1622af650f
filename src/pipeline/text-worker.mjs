// Entry of a text worker thread: TypeScript is loaded through tsx's API, so the worker starts the
// same way whether the server runs under `tsx`, `node --import tsx` or the test runner.
import { register } from 'tsx/esm/api';

register();
await import('./text-worker-main.ts');
