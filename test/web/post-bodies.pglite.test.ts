import { openStore } from '../../src/store/open-store.js';
import { postBodiesContract } from './post-bodies.js';

postBodiesContract('PGlite', () => openStore({ dataDir: 'memory://' }), 7_700);
