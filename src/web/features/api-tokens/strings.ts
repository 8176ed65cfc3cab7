import { API_TOKEN_MAX_DAYS, API_TOKEN_SCOPE_LABELS, type ApiTokenScope } from '../../../domain/api-token';

/** The visible strings of the API tokens screen, in the style of the API keys screen's. */
export const apiTokens = {
  title: 'Quản lý API Tokens',
  subtitle:
    'Token cá nhân hoặc của một workspace để gọi API của workbench từ script, CI hay công cụ khác (Authorization: Bearer …), thay cho e-mail và mật khẩu.',
  keysLink: 'API Keys',
  tokensLink: 'API Tokens',
  create: 'Tạo token',
  listTitle: 'API Tokens của bạn',
  empty: 'Chưa có token nào.',
  loadFailed: 'Không thể tải API tokens',
  scope: (scope: ApiTokenScope) => API_TOKEN_SCOPE_LABELS[scope],
  personal: 'Cá nhân',
  workspace: (name: string) => `Workspace: ${name}`,
  workspaceGone: 'Workspace: không còn là thành viên',
  createdAt: (when: string) => `Tạo lúc: ${when}`,
  expiresAt: (when: string) => `Hết hạn: ${when}`,
  expired: 'Đã hết hạn',
  lastUsed: (when: string, from: string | null) =>
    from ? `Dùng lần cuối: ${when} từ ${from}` : `Dùng lần cuối: ${when}`,
  neverUsed: 'Chưa sử dụng',
  revoke: 'Thu hồi token',
  revokeConfirm: 'Bạn có chắc muốn thu hồi token này? Mọi script đang dùng nó sẽ bị từ chối ngay lập tức.',
  revokeConfirmLabel: 'Thu hồi',
  revoked: 'Token đã được thu hồi',
  revokeFailed: 'Không thể thu hồi token',
  dialogTitle: 'Tạo API Token',
  dialogDescription: 'Token chỉ có những quyền bạn chọn, và không bao giờ nhiều hơn vai trò của bạn.',
  name: 'Tên token',
  namePlaceholder: 'VD: CI chạy flow hằng đêm',
  scopes: 'Quyền (scopes)',
  scopeHints: {
    read: 'Xem flows, executions, kết quả, lịch sử',
    run: 'Bắt đầu execution, chạy step, dừng',
    review: 'Duyệt, sửa hoặc từ chối kết quả',
    write: 'Sửa flows, steps, cài đặt',
    admin: 'Thành viên và webhooks của workspace',
  } satisfies Record<ApiTokenScope, string>,
  expiry: 'Thời hạn',
  days: (n: number) => `${n} ngày`,
  workspaceField: 'Phạm vi',
  personalOption: 'Cá nhân: mọi nơi bạn có quyền',
  workspaceOption: (name: string) => `Chỉ workspace "${name}"`,
  cancel: 'Hủy',
  submit: 'Tạo token',
  submitting: 'Đang tạo...',
  nameRequired: 'Vui lòng đặt tên cho token',
  scopesRequired: 'Chọn ít nhất một quyền (scope) cho token',
  createFailed: 'Không thể tạo token',
  createdTitle: 'Token đã được tạo',
  createdDescription: 'Gửi token trong header Authorization: Bearer <token> của mỗi lần gọi API.',
  createdWarning:
    'Hãy sao chép token ngay bây giờ: nó sẽ không được hiển thị lại. Nếu làm mất, hãy thu hồi và tạo token mới.',
  copy: 'Sao chép token',
  copied: 'Đã copy!',
  copyFailed: 'Không thể sao chép token',
  done: 'Tôi đã lưu token',
};

/** The expiries the form offers, in days; the default is 90. */
export const EXPIRY_CHOICES = [7, 30, 90, 180, API_TOKEN_MAX_DAYS] as const;
