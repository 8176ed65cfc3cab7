/**
 * Zod without compiled parsers: it would otherwise probe `new Function`, which the verifier page's
 * Content-Security-Policy forbids (and a browser reports as a violation even when the probe's throw is caught).
 * Imported by the page before anything that makes a schema.
 */
import * as z from 'zod/mini';

z.config({ jitless: true });
