import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../domain/errors';
import { PROJECT_ROOT } from '../runtime/project-root';

/** The verifier page `npm run build:audit-verify` makes (scripts/build-audit-verify.mjs). */
export const AUDIT_VERIFIER_PAGE = path.join(PROJECT_ROOT, 'dist', 'audit-verify.html');

const pageQuery = z.object({
  download: z
    .enum(['0', '1'], { error: 'download: 1 hoặc 0' })
    .optional()
    .describe('1: as a file to keep (Content-Disposition: attachment)'),
});

/**
 * The page's own policy, from its meta tag: only its inline script and style (by their hashes) run, and
 * nothing is loaded. The app's policy, which allows no inline script, would stop the page.
 */
function policyOf(html: string): string | undefined {
  return /<meta http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1];
}

/**
 * GET /audit-verify.html: the offline verifier of audit bundles, one HTML file that checks a bundle in the
 * browser without a network. Open to anyone, as the verifier is: it holds nothing of the server's. With
 * `?download=1` it comes as a file to keep and open later, away from the server.
 */
export const auditVerifierRoutes: FastifyPluginAsyncZod<{ page?: string }> = async (app, options) => {
  const page = options.page ?? AUDIT_VERIFIER_PAGE;

  // A page a browser opens, not a call: the API document leaves it out.
  app.get(
    '/audit-verify.html',
    { schema: { querystring: pageQuery, hide: true } },
    async (request, reply) => {
      const html = await readFile(page, 'utf8').catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') {
          throw notFound('The audit verifier page is not built: run `npm run build:audit-verify`.');
        }
        throw error;
      });
      const policy = policyOf(html);
      if (policy !== undefined) reply.header('content-security-policy', `${policy}; frame-ancestors 'self'`);
      if (request.query.download === '1') {
        reply.header('content-disposition', 'attachment; filename="audit-verify.html"');
      }
      return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(html);
    },
  );
};
