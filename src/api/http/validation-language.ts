import { z } from 'zod';

/**
 * The API answers in the web app's language: zod's own refusals (a text too long, a wrong type, an unknown
 * field) in Vietnamese, as every `detail` is. A schema's own message is kept as written. Set once for the
 * process, before any request is checked.
 */
z.config(z.locales.vi());
