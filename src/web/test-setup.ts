import { configure } from '@testing-library/react';

/**
 * The unit tests' waits for the screen (findBy…, waitFor) last as long as expect.poll's: on a busy machine a
 * render and its queries' answers take longer than the library's one second, and a wait that ends sooner
 * fails a test that is right.
 */
configure({ asyncUtilTimeout: 15_000 });
