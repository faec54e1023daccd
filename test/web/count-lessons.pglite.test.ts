import { openStore } from '../../src/store/open-store.js';
import { countLessonsContract } from './count-lessons.js';

countLessonsContract('PGlite', () => openStore({ dataDir: 'memory://' }), 7_960);
