/**
 * The full-page sign-in screen at /api/login. Plain HTML forms posting to /api/auth/login and
 * /api/auth/register, so it needs no script (the CSP allows none inline) and works before the SPA loads.
 */

/**
 * The most a sign-in or sign-up body may be, in bytes, as JSON or as a form: its fields need far less (an
 * e-mail address, a password, two names, the page to go back to).
 */
export const SIGN_IN_BODY_LIMIT = 16 * 1024;

/** What the sign-in and sign-up calls answer when they refuse, and what this page shows for each. */
export const signInMessages = {
  credentials: 'Email hoặc mật khẩu không đúng',
  taken: 'Email này đã được đăng ký',
  email: 'Email không hợp lệ',
  password: 'Mật khẩu cần từ 8 đến 200 ký tự',
  firstName: 'Vui lòng nhập tên (tối đa 100 ký tự)',
  lastName: 'Vui lòng nhập họ (tối đa 100 ký tự)',
  tooManyAttempts: 'Bạn đã thử quá nhiều lần. Vui lòng đợi 1 phút rồi thử lại.',
  tooLarge: `Nội dung gửi đi quá lớn: tối đa ${SIGN_IN_BODY_LIMIT / 1024} KB.`,
  unknown: 'Đã có lỗi xảy ra. Vui lòng thử lại.',
} as const;

/**
 * Only these codes travel in the page's `?error=`: a link cannot make the page show text of its choosing.
 */
export type SignInProblem = keyof typeof signInMessages;
export type SignInForm = 'login' | 'register';

export function isSignInProblem(code: unknown): code is SignInProblem {
  return typeof code === 'string' && Object.hasOwn(signInMessages, code);
}

/** The longest page address sign-in goes back to. */
const MOST_NEXT_CHARS = 2_000;

/**
 * Where sign-in goes on to: a path of this site (`/flows/…`, with its query), or null for anything else
 * (another site, `//host`, a backslash some browsers read as a slash, control characters, too long): a link
 * to the sign-in page cannot send the user elsewhere.
 */
export function pageToGoBackTo(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > MOST_NEXT_CHARS) return null;
  if (!value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return null;
  if ([...value].some((character) => character <= ' ' || character === '\u007f')) return null;
  // The sign-in page itself, or sign-out, is no page to go on to.
  if (/^\/api\/(login|logout)(?:[/?#]|$)/.test(value)) return null;
  return new URL(value, 'http://localhost').origin === 'http://localhost' ? value : null;
}

export function loginPageUrl(form: SignInForm, problem?: SignInProblem, next?: string | null): string {
  const query = new URLSearchParams();
  if (form === 'register') query.set('form', 'register');
  if (problem) query.set('error', problem);
  if (next) query.set('next', next);
  const text = query.toString();
  return text ? `/api/login?${text}` : '/api/login';
}

/**
 * What the user typed into a form the server refused, shown again in it so nothing has to be typed twice.
 * Never the password.
 */
export interface TypedFields {
  form: SignInForm;
  email?: string | undefined;
  firstName?: string | undefined;
  lastName?: string | undefined;
}

/** The most of each field the page's inputs accept (their maxlength). */
export const typedFieldLengths = { email: 254, firstName: 100, lastName: 100 } as const;

export function renderLoginPage({
  form,
  problem,
  next,
  typed,
}: {
  form: SignInForm;
  problem?: SignInProblem | undefined;
  /** The page sign-in goes on to (pageToGoBackTo), carried by both forms. */
  next?: string | null | undefined;
  typed?: TypedFields | undefined;
}) {
  // Only into the form they were typed in.
  const typedValue = (forForm: SignInForm, field: keyof typeof typedFieldLengths) => {
    const value = typed?.form === forForm ? typed[field] : undefined;
    return value ? ` value="${escapeHtml(value)}"` : '';
  };
  const focused = firstFieldToFix(form, problem, typed);
  const autofocus = (id: string) => (id === focused ? ' autofocus' : '');
  const goOn = next ? `\n    <input type="hidden" name="next" value="${escapeHtml(next)}">` : '';
  const alert = (forForm: SignInForm) =>
    problem && form === forForm
      ? `<p class="alert" role="alert" data-testid="${forForm}-error">${escapeHtml(signInMessages[problem])}</p>`
      : '';

  return `<!doctype html>
<html lang="vi">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Đăng nhập · Prompt Flow Workbench</title>
<style>${STYLE}</style>
</head>
<body>
<main class="card">
  <a class="brand" href="/">Prompt Flow Workbench</a>
  <h1>Đăng nhập</h1>
  <p class="lead">Đăng nhập để xây dựng và chạy các AI workflow của bạn.</p>
  ${alert('login')}
  <form method="post" action="/api/auth/login" data-testid="login-form">${goOn}
    <label for="login-email">Email</label>
    <input id="login-email" name="email" type="email" autocomplete="email" maxlength="254"${typedValue('login', 'email')} required${autofocus('login-email')}>
    <label for="login-password">Mật khẩu</label>
    <input id="login-password" name="password" type="password" autocomplete="current-password" maxlength="200" required${autofocus('login-password')}>
    <button type="submit" data-testid="login-submit">Đăng nhập</button>
  </form>
  <div class="divider"><span>hoặc</span></div>
  <details${form === 'register' ? ' open' : ''}>
    <summary>Tạo tài khoản</summary>
    ${alert('register')}
    <form method="post" action="/api/auth/register" data-testid="register-form">${goOn}
      <div class="names">
        <div>
          <label for="register-last-name">Họ</label>
          <input id="register-last-name" name="lastName" autocomplete="family-name" maxlength="100"${typedValue('register', 'lastName')} required${autofocus('register-last-name')}>
        </div>
        <div>
          <label for="register-first-name">Tên</label>
          <input id="register-first-name" name="firstName" autocomplete="given-name" maxlength="100"${typedValue('register', 'firstName')} required${autofocus('register-first-name')}>
        </div>
      </div>
      <label for="register-email">Email</label>
      <input id="register-email" name="email" type="email" autocomplete="email" maxlength="254"${typedValue('register', 'email')} required${autofocus('register-email')}>
      <label for="register-password">Mật khẩu</label>
      <input id="register-password" name="password" type="password" autocomplete="new-password" minlength="8" maxlength="200" required${autofocus('register-password')} aria-describedby="register-password-hint">
      <p class="hint" id="register-password-hint">Ít nhất 8 ký tự.</p>
      <button type="submit" data-testid="register-submit">Tạo tài khoản</button>
    </form>
  </details>
  <p class="back"><a href="/">← Về trang chủ</a></p>
</main>
</body>
</html>
`;
}

/** The field the user goes on with: the one the problem names, or the password when the rest was kept. */
function firstFieldToFix(
  form: SignInForm,
  problem: SignInProblem | undefined,
  typed: TypedFields | undefined,
) {
  if (form === 'login') return problem === 'credentials' && typed?.email ? 'login-password' : 'login-email';
  if (problem === 'taken' || problem === 'email') return 'register-email';
  if (problem === 'lastName') return 'register-last-name';
  if (problem === 'password') return 'register-password';
  return 'register-first-name';
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

// The SPA's palette (Tailwind slate and indigo), so the page does not look like a different product.
const STYLE = `
*,*::before,*::after{box-sizing:border-box}
body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;padding:24px 16px;
  background:#f8fafc;color:#0f172a;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
.card{width:100%;max-width:420px;background:#fff;border:1px solid #e2e8f0;border-radius:12px;padding:32px;
  box-shadow:0 1px 3px rgba(15,23,42,.06),0 8px 24px rgba(15,23,42,.06)}
.brand{display:inline-block;color:#4f46e5;font-weight:600;text-decoration:none;margin-bottom:16px}
h1{font-size:24px;margin:0 0 4px}
.lead{margin:0 0 20px;color:#475569}
label{display:block;font-weight:500;font-size:14px;margin:12px 0 4px}
input{width:100%;padding:9px 12px;border:1px solid #cbd5e1;border-radius:8px;font:inherit;color:inherit;background:#fff}
input:focus{outline:2px solid #6366f1;outline-offset:1px;border-color:#6366f1}
button{width:100%;margin-top:20px;padding:10px 16px;border:0;border-radius:8px;background:#4f46e5;color:#fff;
  font:inherit;font-weight:600;cursor:pointer}
button:hover{background:#4338ca}
button:focus-visible{outline:2px solid #312e81;outline-offset:2px}
.alert{margin:0 0 12px;padding:10px 12px;border:1px solid #fecaca;border-radius:8px;background:#fef2f2;color:#b91c1c}
.divider{display:flex;align-items:center;gap:12px;margin:24px 0 16px;color:#64748b;font-size:13px}
.divider::before,.divider::after{content:"";flex:1;border-top:1px solid #e2e8f0}
summary{cursor:pointer;font-weight:600;color:#4f46e5;list-style-position:inside}
details[open] summary{margin-bottom:12px}
details button{background:#0f172a}
details button:hover{background:#1e293b}
.names{display:grid;grid-template-columns:1fr 1fr;gap:12px}
.hint{margin:4px 0 0;font-size:13px;color:#64748b}
.back{margin:24px 0 0;text-align:center;font-size:14px}
.back a{color:#475569}
`;
