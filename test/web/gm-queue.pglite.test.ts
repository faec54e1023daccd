import { openStore } from '../../src/store/open-store.js';
import { gmQueueContract } from './gm-queue.js';

gmQueueContract('PGlite', () => openStore({ dataDir: 'memory://' }), 7_900);
