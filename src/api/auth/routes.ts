import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DomainError } from '../../domain/errors';
import { requiredText } from '../../domain/filled-text';
import { recordId } from '../http/answer-schemas';
import { handleError, inputIssuesOf } from '../http/errors';
import {
  isSignInProblem,
  loginPageUrl,
  signInMessages as messages,
  pageToGoBackTo,
  renderLoginPage,
  SIGN_IN_BODY_LIMIT,
  type SignInForm,
  type SignInProblem,
  type TypedFields,
  typedFieldLengths,
} from './login-page';
import { hashPassword, rejectAfterHashing, verifyPassword } from './passwords';
import { SESSION_COOKIE, sessionChanges, userIdOf } from './plugin';

const email = z
  .string({ error: messages.email })
  .trim()
  .toLowerCase()
  .pipe(z.email({ error: messages.email }).max(254, messages.email))
  // The document shows what is checked after the trim and the lower case.
  .meta({ format: 'email', pattern: z.regexes.email.source, maxLength: 254 });
const password = z.string({ error: messages.password }).min(8, messages.password).max(200, messages.password);
const personName = (message: string) => requiredText(message, 100, message);

/** The sign-in page's forms carry the page to go on to; JSON callers leave it out. */
const next = z.string().max(4_000).optional();
const signInBody = z.object({ email, password, next });
const signUpBody = z.object({
  email,
  password,
  next,
  firstName: personName(messages.firstName),
  lastName: personName(messages.lastName),
});
const loginPageQuery = z.object({
  form: z.enum(['login', 'register']).catch('login'),
  error: z.string().optional().catch(undefined),
  next: z.string().optional().catch(undefined),
});

const userAnswer = z.object({
  id: recordId,
  email: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
});
type User = z.output<typeof userAnswer>;

// Per IP: enough for typos, too few for guessing passwords.
const signInRateLimit = {
  max: 10,
  timeWindow: '1 minute',
  errorResponseBuilder: () =>
    new DomainError('over_limit', messages.tooManyAttempts, { code: 'sign_in_rate_limited' }),
};

/** The sign-in page, sign-in, sign-up, the current user and sign-out. */
export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(sessionChanges);

  // The sign-in page posts plain HTML forms; only these routes accept them, every other route stays JSON-only.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: SIGN_IN_BODY_LIMIT },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );

  // The sign-in page and sign-out are pages a browser navigates to, not calls: the API document leaves them out.
  app.get('/api/login', { schema: { querystring: loginPageQuery, hide: true } }, async (request, reply) => {
    const query = request.query;
    const goOn = pageToGoBackTo(query.next);
    if (request.userId) return reply.redirect(goOn ?? '/');
    const typed = typedFieldsOf(request);
    // Shown once: a later visit, or another person at the same computer, starts from an empty form.
    if (typed) reply.clearCookie(TYPED_COOKIE, TYPED_COOKIE_OPTIONS);
    return reply
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(
        renderLoginPage({
          form: query.form,
          problem: isSignInProblem(query.error) ? query.error : undefined,
          next: goOn,
          typed,
        }),
      );
  });

  app.post(
    '/api/auth/login',
    {
      config: { rateLimit: signInRateLimit },
      // The routes' own limit (a form's parser has it too), so a refusal names it, not the app's 4 MB.
      bodyLimit: SIGN_IN_BODY_LIMIT,
      errorHandler: answerSignInError('login'),
      schema: { body: signInBody, response: { 200: userAnswer, 303: formPosted } },
    },
    async (request, reply) => {
      const input = request.body;
      const account = await app.users.accountByEmail(input.email);
      const matches =
        account?.passwordSalt && account.passwordHash
          ? await verifyPassword(input.password, account.passwordSalt, account.passwordHash)
          : await rejectAfterHashing(input.password);
      if (!account || !matches) throw new DomainError('signed_out', messages.credentials);
      await startSession(request, account.id);
      return answerSignedIn(request, reply, 200, publicUser(account));
    },
  );

  app.post(
    '/api/auth/register',
    {
      config: { rateLimit: signInRateLimit },
      // The routes' own limit (a form's parser has it too), so a refusal names it, not the app's 4 MB.
      bodyLimit: SIGN_IN_BODY_LIMIT,
      errorHandler: answerSignInError('register'),
      schema: { body: signUpBody, response: { 201: userAnswer, 303: formPosted } },
    },
    async (request, reply) => {
      const input = request.body;
      const { salt, hash } = await hashPassword(input.password);
      const user = await app.users.register(input, { salt, hash });
      if (!user) throw new DomainError('conflict', messages.taken);
      await startSession(request, user.id);
      return answerSignedIn(request, reply, 201, publicUser(user));
    },
  );

  app.get('/api/auth/user', { schema: { response: { 200: userAnswer } } }, async (request) => {
    const user = await app.users.byId(userIdOf(request));
    // A session can outlive its account.
    if (!user) throw new DomainError('signed_out', 'Unauthorized');
    return publicUser(user);
  });

  app.get('/api/logout', { schema: { hide: true } }, async (request, reply) => {
    await request.session?.destroy();
    request.userId = null;
    return reply.clearCookie(SESSION_COOKIE, { path: '/' }).header('cache-control', 'no-store').redirect('/');
  });
};

/** A new session id on every sign-in, so an id planted before sign-in (session fixation) is worth nothing. */
async function startSession(request: FastifyRequest, userId: string) {
  await request.session.regenerate();
  request.session.userId = userId;
  request.session.renewedAt = Date.now();
  request.userId = userId;
}

function publicUser(user: User): User {
  return { id: user.id, email: user.email, firstName: user.firstName, lastName: user.lastName };
}

/** How the sign-in page's own form (no script needed) is answered. */
const formPosted = z
  .undefined()
  .describe(
    'A form the sign-in page posted (application/x-www-form-urlencoded): on to the page it came for, or back to the sign-in page naming the problem (Location)',
  );

/** The `next` a sign-in form posted (also when its body failed validation). */
function nextOf(request: FastifyRequest): unknown {
  return (request.body as { next?: unknown } | undefined)?.next;
}

function isFormPost(request: FastifyRequest): boolean {
  return request.headers['content-type']?.startsWith('application/x-www-form-urlencoded') ?? false;
}

/** JSON callers get the user; the sign-in page's form posts go on to the app. */
function answerSignedIn(request: FastifyRequest, reply: FastifyReply, statusCode: number, user: User) {
  if (isFormPost(request)) return reply.redirect(pageToGoBackTo(nextOf(request)) ?? '/', 303);
  return reply.status(statusCode).send(user);
}

/**
 * JSON callers get the central `{message}` answer; a form post goes back to the sign-in page with the
 * problem named (as a code, so the page only ever shows its own texts).
 */
function answerSignInError(form: SignInForm) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (!isFormPost(request)) return handleError(error, request, reply);
    const problem = problemOf(error);
    if (problem === 'unknown') request.log.error({ err: error }, 'sign-in form failed');
    keepTyped(form, request, reply);
    return reply.redirect(loginPageUrl(form, problem, pageToGoBackTo(nextOf(request))), 303);
  };
}

/**
 * What a refused form post had typed travels back to the sign-in page in a cookie of its own rather than in
 * the page's address, so an e-mail address never lands in the browser's history or a server log.
 */
const TYPED_COOKIE = 'workbench.typed';
const TYPED_COOKIE_OPTIONS = {
  path: '/api/login',
  httpOnly: true,
  sameSite: 'lax',
  secure: 'auto',
  maxAge: 60,
} as const;

const typedCookie = z.object({
  form: z.enum(['login', 'register']),
  email: z.string().max(typedFieldLengths.email).optional().catch(undefined),
  firstName: z.string().max(typedFieldLengths.firstName).optional().catch(undefined),
  lastName: z.string().max(typedFieldLengths.lastName).optional().catch(undefined),
});

function keepTyped(form: SignInForm, request: FastifyRequest, reply: FastifyReply) {
  const body = (request.body ?? {}) as Record<string, unknown>;
  const field = (name: keyof typeof typedFieldLengths) =>
    typeof body[name] === 'string' ? body[name].slice(0, typedFieldLengths[name]) : undefined;
  const typed: TypedFields =
    form === 'login'
      ? { form, email: field('email') }
      : { form, email: field('email'), firstName: field('firstName'), lastName: field('lastName') };
  reply.setCookie(TYPED_COOKIE, JSON.stringify(typed), TYPED_COOKIE_OPTIONS);
}

function typedFieldsOf(request: FastifyRequest): TypedFields | undefined {
  const text = request.cookies[TYPED_COOKIE];
  if (!text) return undefined;
  try {
    const typed = typedCookie.safeParse(JSON.parse(text));
    return typed.success ? typed.data : undefined;
  } catch {
    return undefined;
  }
}

function problemOf(error: unknown): SignInProblem {
  const issues = inputIssuesOf(error);
  if (issues) {
    const field = issues[0]?.path[0];
    return isSignInProblem(field) ? field : 'unknown';
  }
  if ((error as FastifyError).code === 'FST_ERR_CTP_BODY_TOO_LARGE') return 'tooLarge';
  if (!(error instanceof DomainError)) return 'unknown';
  if (error.kind === 'signed_out') return 'credentials';
  if (error.kind === 'conflict') return 'taken';
  if (error.kind === 'over_limit') return 'tooManyAttempts';
  return 'unknown';
}
