import { openStore } from '../../src/store/open-store.js';
import { cheapPollContract } from './cheap-poll.js';

cheapPollContract('PGlite', () => openStore({ dataDir: 'memory://' }), 7_500);
