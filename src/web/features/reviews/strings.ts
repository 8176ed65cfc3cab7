import { reviewStatus } from '@/lib/strings';

/**
 * The visible strings of reviews by another person: the inbox page, the navigation's count and the run
 * screen's review panel. Templated ones are functions.
 */

/** What happens to a review still open at its due time, as the choices say it. */
const onDueOptions = {
  remind: 'Nhắc lại người duyệt',
  escalate: 'Chuyển lên owner',
  fail: 'Hết hạn, trả lại người chạy',
} as const;

export const reviewsPage = {
  title: 'Reviews',
  description: 'Các step đang chờ bạn duyệt (review), và những step bạn đã duyệt.',
  pending: 'Đang chờ',
  done: 'Đã xong',
  loading: 'Đang tải...',
  loadFailed: 'Không thể tải danh sách review',
  empty: 'Không có review nào đang chờ bạn.',
  emptyDone: 'Chưa có review nào đã xong.',
  requestedBy: (name: string, at: string) => `Yêu cầu bởi ${name} · ${at}`,
  due: (at: string) => `Hạn: ${at}`,
  approvals: (given: number, needed: number) => `${given}/${needed} approve`,
  overdue: 'Quá hạn',
  overdueSince: (at: string) => `Quá hạn từ ${at}`,
  open: 'Mở run',
  status: reviewStatus,
};

export const reviewNav = {
  label: 'Reviews',
  count: (n: number) => `${n} review đang chờ`,
};

export const reviewPanel = {
  waitingFor: (who: string) => `Đang chờ duyệt (review) bởi ${who}`,
  members: (count: number) => `${count} người được chỉ định`,
  role: (role: string) => `một thành viên có role ${role}`,
  ownersToo: (who: string) => `${who} hoặc owner của workspace`,
  /** Why a review went to the owners before its due time. */
  tooFewDeciders:
    'Không còn đủ người có thể duyệt review này, nên owner của workspace cũng có thể quyết định: một owner approve là đủ.',
  askedAgain: (because: 'edited' | 'deleted') =>
    because === 'edited'
      ? 'Yêu cầu lại vì kết quả đã được sửa: các approve trước không còn hiệu lực.'
      : 'Yêu cầu lại vì một kết quả đã bị xóa: các approve trước không còn hiệu lực.',
  since: (at: string) => `từ ${at}`,
  due: (at: string) => `hạn ${at}`,
  reminded: (at: string) => `Đã nhắc người duyệt lúc ${at}`,
  expired: (at: string) =>
    `Review hết hạn lúc ${at}: chưa ai duyệt. Hãy chạy lại step này hoặc yêu cầu review lại.`,
  approvals: (given: number, needed: number) => `${given}/${needed} approve`,
  and: 'và',
  /** A person while the members list loads. */
  someone: '...',
  formerMember: 'người đã rời workspace',
  note: 'Ghi chú của người chạy',
  approvedSoFar: (names: string) => `Đã approve: ${names}`,
  approvedBy: (names: string) => `Đã được ${names} approve.`,
  comment: (name: string) => `Nhận xét của ${name}`,
  // A reason that ends its own sentence gets no second full stop.
  rejected: (name: string, reason: string) =>
    `Bị ${name} từ chối: ${reason.replace(/[.!?…]+$/u, '')}. Hãy chạy lại step này, hoặc sửa kết quả để yêu cầu review lại.`,
  editedBy: (name: string, at: string) => `Đã sửa bởi ${name} lúc ${at}`,
  editedResult: (label: string) => `Kết quả “${label}”`,
  approve: 'Approve',
  approveTitle: 'Approve kết quả',
  approveDescription: 'Kết quả của step này sẽ được approve. Bạn có thể để lại nhận xét cho người chạy.',
  approveComment: 'Nhận xét (không bắt buộc)',
  approveCommentPlaceholder: 'Điều gì tốt, điều gì nên để ý lần sau? Người chạy sẽ đọc nhận xét này.',
  approveCommentTooLong: (max: number) => `Nhận xét tối đa ${max} ký tự.`,
  sendApprove: 'Gửi approve',
  close: 'Đóng',
  approvedByYou: 'Bạn đã approve; đang chờ những người duyệt còn lại.',
  reject: 'Reject',
  reason: 'Lý do từ chối',
  reasonPlaceholder: 'Vì sao kết quả này chưa được? Người chạy sẽ đọc lý do này.',
  reasonRequired: 'Nhập lý do trước khi reject.',
  sendReject: 'Gửi reject',
  cancel: 'Hủy',
  approveFailed: 'Không thể approve review',
  rejectFailed: 'Không thể reject review',
};

/** A result whose approval is its review's: where the review stands, in place of the Approve checkbox. */
export const resultReview = {
  waiting: 'Chờ review',
  approvedBy: (names: string) => `Đã được ${names} approve`,
  rejectedBy: (name: string, reason: string) => `Bị ${name} reject: ${reason}`,
  expired: 'Review hết hạn',
  byReviewOnly: 'Chỉ approve qua review',
};

export const reviewRule = {
  title: 'Người duyệt (review)',
  description: 'Ai approve kết quả của step này. Khi là người khác, execution chờ họ duyệt.',
  who: 'Ai duyệt',
  options: {
    runner: 'Người chạy step (mặc định)',
    reviewer: 'Thành viên có role reviewer',
    editor: 'Thành viên có role editor',
    owner: 'Thành viên có role owner',
  },
  members: 'Người được chỉ định',
  membersLegend: 'Chọn người duyệt',
  membersLoading: 'Đang tải thành viên...',
  membersLoadFailed: 'Không thể tải thành viên của workspace',
  noMembers: 'Workspace chưa có thành viên nào được duyệt (reviewer, editor hoặc owner).',
  pickOne: 'Chọn ít nhất một người: kết quả chỉ chờ duyệt khi có người được chỉ định.',
  lastOne: 'Cần ít nhất một người; muốn bỏ hết thì chọn cách duyệt khác.',
  formerMember: 'Người không còn được duyệt trong workspace',
  approvals: 'Số người cần approve',
  approvalsHint: (max: number) => `Từ 1 đến ${max}.`,
  dueInHours: 'Hạn duyệt (giờ)',
  dueInHoursHint: 'Để trống nếu không có hạn; từ 1 đến 8760 giờ (một năm).',
  dueInHoursInvalid: 'Nhập số giờ nguyên từ 1 đến 8760, hoặc để trống.',
  onDue: 'Khi quá hạn',
  onDueOptions,
  roleName: {
    owner: 'owner',
    editor: 'editor',
    reviewer: 'reviewer',
    auditor: 'auditor',
  },
  saveFailed: 'Không thể lưu người duyệt',
  save: 'Lưu người duyệt',
  saving: 'Đang lưu...',
  discard: 'Hoàn tác',
  unsaved: 'Có thay đổi chưa lưu: bấm Lưu để ghi thành một version của flow.',
  approvalsInvalid: (max: number) => `Nhập số nguyên từ 1 đến ${max}.`,
  you: '(bạn)',
  ownersOnly: 'Chỉ owner của workspace mới đổi được quy tắc review.',
  shown: {
    who: 'Ai duyệt',
    approvals: 'Số người cần approve',
    due: 'Hạn duyệt',
    noDue: 'Không có hạn',
    dueIn: (hours: number) => `${hours} giờ`,
    onDue: 'Khi quá hạn',
  },
};

export const requestReview = {
  open: 'Yêu cầu review',
  title: 'Yêu cầu review',
  description: (step: string) => `Nhờ người khác duyệt kết quả mới nhất của step “${step}”.`,
  // Who, how many and what happens at the due time are the review rule's fields (reviewRule).
  dueAt: 'Hạn duyệt',
  dueAtHint: 'Không bắt buộc; trong vòng một năm.',
  note: 'Ghi chú cho người duyệt',
  notePlaceholder: 'Cần xem kỹ điều gì? (không bắt buộc)',
  pickOne: 'Chọn ít nhất một người.',
  send: 'Gửi yêu cầu',
  cancel: 'Hủy',
  close: 'Đóng',
  failed: 'Không thể yêu cầu review',
};
