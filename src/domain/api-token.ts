import { z } from 'zod';
import { PRODUCT_RULE } from './errors';
import { requiredText } from './filled-text';
import { requestedId } from './record-id';

/**
 * Personal and workspace API tokens (`Authorization: Bearer wb_pat_…`): what a token may be made with. The
 * server only ever keeps a token's hash; the token is shown once, when it is made.
 */

/** What every token starts with, so that a token pasted where it should not be is recognised. */
export const API_TOKEN_PREFIX = 'wb_pat_';

/**
 * What a token may be used for, each a kind of call (the one table of which operation needs which scope is
 * OPERATION_SCOPES in src/api/access.ts): read anything, run (start executions, run steps, stop), review
 * (decide reviews, approve or edit results), write (flows, steps, settings), admin (workspace members,
 * invitations, webhooks). A scope never adds to what the token's maker may do: it only narrows it.
 */
export const API_TOKEN_SCOPES = ['read', 'run', 'review', 'write', 'admin'] as const;
export type ApiTokenScope = (typeof API_TOKEN_SCOPES)[number];

/** How the tokens screen names each scope. */
export const API_TOKEN_SCOPE_LABELS: Record<ApiTokenScope, string> = {
  read: 'Đọc (read)',
  run: 'Chạy (run)',
  review: 'Duyệt (review)',
  write: 'Sửa (write)',
  admin: 'Quản trị (admin)',
};

export const API_TOKEN_NAME_MAX_LENGTH = 100;
/** Tokens one user may hold at once, expired ones included until they are revoked. */
export const MAX_API_TOKENS_PER_USER = 50;
export const API_TOKEN_MIN_DAYS = 1;
export const API_TOKEN_MAX_DAYS = 366;
export const API_TOKEN_DEFAULT_DAYS = 90;
/** The last use of a token is written at most this often: a token's calls stay reads. */
export const API_TOKEN_USE_WRITE_MS = 60_000;

export const API_TOKEN_NAME_REQUIRED = 'Vui lòng đặt tên cho token';
export const API_TOKEN_NAME_TOO_LONG = `Tên token dài tối đa ${API_TOKEN_NAME_MAX_LENGTH} ký tự`;
export const API_TOKEN_SCOPES_REQUIRED = 'Chọn ít nhất một quyền (scope) cho token';
export const API_TOKEN_DAYS_OUT_OF_RANGE = `Thời hạn của token là từ ${API_TOKEN_MIN_DAYS} đến ${API_TOKEN_MAX_DAYS} ngày`;
export const API_TOKENS_USED_UP = `Mỗi tài khoản có tối đa ${MAX_API_TOKENS_PER_USER} token (kể cả token đã hết hạn); hãy thu hồi token không dùng nữa`;
export const API_TOKEN_HEADER_MALFORMED = `Header Authorization phải có dạng "Bearer <token>", với một API token (${API_TOKEN_PREFIX}…)`;
export const API_TOKEN_NOT_A_TOKEN = `Đây không phải API token: API token bắt đầu bằng ${API_TOKEN_PREFIX}`;
export const API_TOKEN_NOT_VALID = 'API token không tồn tại, đã bị thu hồi hoặc đã hết hạn';
export const API_TOKEN_NOT_FOUND = 'Không tìm thấy token';
export const API_TOKENS_NEED_SESSION =
  'Chỉ có thể tạo, xem và thu hồi API token khi đăng nhập, không dùng token để làm việc này';
export const apiTokenLacksScope = (needed: string, held: readonly string[]) =>
  `API token này không được làm việc này: cần scope "${needed}", token chỉ có ${held.join(', ')}`;
export const API_TOKEN_OUTSIDE_WORKSPACE = 'Không tìm thấy: token này chỉ dùng được trong workspace của nó';

/** A new token (POST /api/user/tokens). */
export const newApiTokenSchema = z.strictObject({
  name: requiredText(API_TOKEN_NAME_REQUIRED, API_TOKEN_NAME_MAX_LENGTH, API_TOKEN_NAME_TOO_LONG),
  scopes: z
    .array(z.enum(API_TOKEN_SCOPES))
    .max(API_TOKEN_SCOPES.length)
    .refine((scopes) => scopes.length > 0, { message: API_TOKEN_SCOPES_REQUIRED, params: PRODUCT_RULE })
    .transform((scopes) => API_TOKEN_SCOPES.filter((scope) => scopes.includes(scope)))
    .describe('What the token may be used for: read, run, review, write, admin (at least one)'),
  expiresInDays: z
    .int()
    .min(API_TOKEN_MIN_DAYS, API_TOKEN_DAYS_OUT_OF_RANGE)
    .max(API_TOKEN_MAX_DAYS, API_TOKEN_DAYS_OUT_OF_RANGE)
    .default(API_TOKEN_DEFAULT_DAYS)
    .describe(`Days until the token stops working, ${API_TOKEN_MIN_DAYS} to ${API_TOKEN_MAX_DAYS}`),
  workspaceId: requestedId()
    .nullish()
    .describe('The one workspace the token acts in (you must be a member); none: a personal token'),
});
export type NewApiToken = z.output<typeof newApiTokenSchema>;
