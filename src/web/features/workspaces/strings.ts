/**
 * The visible strings of the workspaces screens: the list, a workspace's flows, members and executions,
 * and accepting an invitation. Templated ones are functions.
 */
import { workspaceRoles } from '@/lib/strings';
import type { WorkspaceRole } from '@/lib/workspace-roles';

export const roles: Record<WorkspaceRole, string> = workspaceRoles;

/** What each role may do, in a line: shown beside the role picker. */
export const roleHints: Record<WorkspaceRole, string> = {
  owner: 'Toàn quyền, kể cả quản lý thành viên',
  editor: 'Tạo, sửa, chạy và duyệt flow',
  reviewer: 'Xem; duyệt, sửa hoặc loại kết quả',
  auditor: 'Chỉ xem',
};

export const workspacesList = {
  title: 'Workspaces',
  subtitle: 'Làm việc chung trên flow với nhóm của bạn, mỗi người một vai trò.',
  createTitle: 'Tạo workspace',
  name: 'Tên workspace',
  namePlaceholder: 'Ví dụ: Nhóm Marketing',
  nameRequired: 'Vui lòng nhập tên workspace',
  nameTooLong: (max: number) => `Tên workspace tối đa ${max} ký tự`,
  create: 'Tạo workspace',
  creating: 'Đang tạo...',
  created: (name: string) => `Workspace "${name}" đã được tạo`,
  empty: 'Bạn chưa ở workspace nào. Tạo một workspace hoặc mở link mời từ đồng nghiệp.',
  loadFailed: 'Không thể tải danh sách workspace',
  yourRole: 'Vai trò của bạn',
  open: 'Mở',
};

export const workspacePage = {
  back: 'Về danh sách workspace',
  notFoundTitle: 'Không tìm thấy workspace',
  notFoundText: 'Workspace không tồn tại hoặc bạn không còn là thành viên.',
  yourRole: (role: string) => `Vai trò của bạn: ${role}`,
  sections: 'Các phần của workspace',
  tabs: { flows: 'Flows', members: 'Members', executions: 'Executions', webhooks: 'Webhooks' },
};

export const workspaceFlows = {
  create: 'Tạo flow',
  empty: 'Workspace chưa có flow nào.',
  open: 'Mở',
  stepCount: (n: number) => `${n} steps`,
  readOnly: 'Vai trò của bạn chỉ cho xem các flow này.',
};

export const members = {
  title: 'Thành viên',
  name: 'Tên',
  email: 'Email',
  role: 'Vai trò',
  actions: 'Thao tác',
  you: '(bạn)',
  roleOf: (name: string) => `Vai trò của ${name}`,
  remove: 'Xoá',
  removeOf: (name: string) => `Xoá ${name} khỏi workspace`,
  removeConfirm: (name: string) =>
    `Xoá ${name} khỏi workspace? Người này sẽ không xem được các flow ở đây nữa.`,
  removed: (name: string) => `${name} đã bị xoá khỏi workspace`,
  roleChanged: (name: string, role: string) => `${name} giờ là ${role}`,
  inviteTitle: 'Mời thành viên',
  inviteText: 'Gửi link mời cho người được mời; họ đăng nhập bằng đúng email này rồi bấm Accept.',
  inviteEmail: 'Email người được mời',
  emailInvalid: 'Email không hợp lệ',
  inviteRole: 'Vai trò khi tham gia',
  invite: 'Tạo link mời',
  inviting: 'Đang tạo...',
  inviteLink: (email: string) => `Link mời cho ${email}`,
  copy: 'Copy link',
  copied: 'Đã copy!',
  copyFailed: 'Lỗi copy',
  expires: (at: string) => `Hết hạn lúc ${at}`,
  empty: 'Chưa có thành viên.',
};

export const pendingInvitations = {
  title: 'Lời mời đang chờ',
  text: 'Link mời chưa được dùng. Revoke một lời mời thì link đó không dùng được nữa.',
  email: 'Email',
  role: 'Vai trò',
  invitedBy: 'Người mời',
  expiresAt: 'Hết hạn',
  actions: 'Thao tác',
  revoke: 'Revoke',
  revokeOf: (email: string) => `Revoke lời mời gửi ${email}`,
  revokeConfirm: (email: string) =>
    `Thu hồi lời mời gửi ${email}?\n\nLink mời sẽ không dùng được nữa; muốn mời lại thì tạo link mới.`,
  revokeLabel: 'Revoke',
  revoked: (email: string) => `Đã thu hồi lời mời gửi ${email}`,
  empty: 'Không có lời mời nào đang chờ.',
  loadMore: 'Tải thêm',
  loadingMore: 'Đang tải thêm...',
};

export const executions = {
  title: 'Executions',
  filters: 'Lọc executions',
  flow: 'Flow',
  person: 'Người chạy',
  status: 'Trạng thái',
  from: 'Từ ngày',
  to: 'Đến ngày',
  any: 'Tất cả',
  statuses: {
    running: 'Running',
    waiting: 'Đang chờ',
    stopped: 'Stopped',
    completed: 'Completed',
    failed: 'Failed',
  },
  startedAt: 'Bắt đầu',
  completedAt: 'Kết thúc',
  deletedFlow: '(flow đã xoá)',
  open: 'Xem lịch sử',
  openOf: (flow: string, at: string) => `Xem lịch sử execution của ${flow} lúc ${at}`,
  openFlow: 'Mở flow',
  empty: 'Không có execution nào khớp bộ lọc.',
  loadMore: 'Tải thêm',
  loadingMore: 'Đang tải thêm...',
  loadFailed: 'Không thể tải executions',
};

export const invitation = {
  title: 'Lời mời vào workspace',
  text: 'Bạn được mời tham gia một workspace. Bấm Accept để xem các flow của nhóm với vai trò được mời.',
  loading: 'Đang đọc lời mời...',
  invitedBy: (inviter: string, workspace: string) => `${inviter} mời bạn vào workspace “${workspace}”.`,
  role: (role: string, hint: string) => `Vai trò: ${role} (${hint})`,
  expires: (at: string) => `Lời mời có hạn đến ${at}.`,
  someone: 'Một owner',
  accept: 'Accept',
  accepting: 'Đang nhận lời mời...',
  invalidTitle: 'Lời mời không còn hiệu lực',
  invalidText: 'Lời mời này không còn hiệu lực: link đã được dùng, đã hết hạn, hoặc được gửi cho email khác.',
  usedTitle: 'Lời mời đã được dùng',
  usedText: (workspace: string) =>
    `Bạn đã nhận lời mời vào workspace “${workspace}” rồi. Mỗi link mời chỉ dùng được một lần.`,
  failed: 'Không thể nhận lời mời',
  accepted: (role: string) => `Bạn đã tham gia workspace với vai trò ${role}`,
  toWorkspaces: 'Xem workspaces',
};

export const webhooks = {
  title: 'Webhooks',
  text: 'Gửi các sự kiện của workspace tới dịch vụ của bạn, ký theo Standard Webhooks. Chỉ owner thấy phần này.',
  addTitle: 'Thêm webhook',
  url: 'URL nhận',
  urlPlaceholder: 'https://hooks.example.com/workbench',
  urlInvalid: 'URL phải bắt đầu bằng http:// hoặc https://',
  events: 'Sự kiện',
  eventsHint: 'Chọn ít nhất một sự kiện.',
  allEvents: 'Tất cả sự kiện (*)',
  add: 'Thêm webhook',
  adding: 'Đang thêm...',
  added: 'Đã thêm webhook',
  secretTitle: 'Secret của webhook',
  secretText: 'Chỉ hiện một lần: lưu ngay ở dịch vụ nhận để kiểm tra chữ ký.',
  rotatedText: (until: string) =>
    `Secret mới chỉ hiện một lần. Secret cũ vẫn ký các lần gửi đến ${until}, sau đó chỉ secret mới.`,
  copy: 'Copy secret',
  copied: 'Đã copy!',
  copyFailed: 'Lỗi copy',
  hide: 'Đã lưu, ẩn đi',
  empty: 'Chưa có webhook nào.',
  createdAt: (at: string) => `Tạo lúc ${at}`,
  previousSecret: (until: string) => `Secret cũ còn ký đến ${until}`,
  test: 'Gửi thử',
  testing: 'Đang gửi...',
  testSent: 'Đã xếp lịch gửi thử; xem kết quả trong danh sách bên dưới',
  rotate: 'Đổi secret',
  rotateConfirm:
    'Tạo secret mới cho webhook này?\n\nTrong 24 giờ, mỗi lần gửi được ký bằng cả secret mới và secret cũ; sau đó chỉ secret mới.',
  rotateLabel: 'Đổi secret',
  delete: 'Xoá',
  deleteOf: (url: string) => `Xoá webhook ${url}`,
  deleteConfirm: (url: string) =>
    `Xoá webhook ${url}?\n\nCác sự kiện sẽ không được gửi tới đây nữa, và lịch sử gửi cũng bị xoá.`,
  deleteLabel: 'Xoá webhook',
  deleted: 'Đã xoá webhook',
  deliveries: 'Các lần gửi',
  showDeliveries: 'Xem các lần gửi',
  hideDeliveries: 'Ẩn các lần gửi',
  noDeliveries: 'Chưa có lần gửi nào.',
  type: 'Sự kiện',
  status: 'Trạng thái',
  attempts: 'Số lần thử',
  at: 'Lúc',
  actions: 'Thao tác',
  statuses: {
    delivered: 'Đã gửi',
    pending: 'Đang chờ',
    failed: 'Thất bại',
  },
  failedWith: (status: number | null) =>
    status === null ? 'Thất bại (không kết nối được)' : `Thất bại (HTTP ${status})`,
  pendingWith: (status: number | null) =>
    status === null ? 'Đang chờ' : `Đang chờ (lần trước HTTP ${status})`,
  retry: 'Thử lại ngay',
  retried: 'Đã xếp lịch gửi lại',
  loadFailed: 'Không thể tải webhooks',
  eventNames: {
    'review.requested': 'Yêu cầu duyệt',
    'review.decided': 'Duyệt / từ chối',
    'review.due': 'Đến hạn duyệt',
    'review.handedBack': 'Trả về owner (người duyệt rời workspace)',
    'review.ownersToo': 'Owner cùng duyệt (không đủ người duyệt)',
    'review.withdrawn': 'Rút yêu cầu duyệt (execution bị reset)',
    'execution.completed': 'Execution hoàn tất',
    'checkpoint.published': 'Checkpoint của audit log',
    'webhook.test': 'Gửi thử',
  } as Record<string, string>,
};

export const webhookToasts = {
  addFailed: 'Không thể thêm webhook',
  deleteFailed: 'Không thể xoá webhook',
  rotateFailed: 'Không thể đổi secret',
  testFailed: 'Không thể gửi thử',
  retryFailed: 'Không thể gửi lại',
};

export const toasts = {
  createFailed: 'Không thể tạo workspace',
  inviteFailed: 'Không thể tạo link mời',
  roleFailed: 'Không thể đổi vai trò',
  removeFailed: 'Không thể xoá thành viên',
  revokeFailed: 'Không thể thu hồi lời mời',
};
