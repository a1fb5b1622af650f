// Entry of a media worker thread (image models), loaded through tsx like the text workers.
import { register } from 'tsx/esm/api';

register();
await import('./media-worker-main.ts');
