// Entry of the page-extraction worker thread: TypeScript is loaded through tsx's API, as for the text workers.
import { register } from 'tsx/esm/api';

register();
await import('./page-worker-main.ts');
