/**
 * The visible strings shared by several parts of the web app (the shell, the shared components,
 * more than one feature); each feature keeps its own in its strings.ts. Their texts are a contract,
 * checked against it in strings.test.ts; templated ones are functions.
 */

import { DATE_LOCALE, formatDateTime } from './format-date';

export const app = {
  name: 'Prompt Flow Workbench',
  loading: 'Đang tải...',
  signInToContinue: 'Vui lòng đăng nhập để tiếp tục...',
};

/** Refusals the screens word themselves instead of the server's text, by the problem's code. */
export const serverRefusals = {
  free_allowance_used_up:
    'Bạn đã dùng hết số steps miễn phí. Thêm API key của riêng bạn ở trang API Keys (/api-keys) để tiếp tục không giới hạn.',
} as const;

/** The end of a list read page by page: the next page loads as it scrolls into view, or on the button. */
export const pagedList = {
  loadMore: 'Tải thêm',
  loadingMore: 'Đang tải thêm...',
  /** A count of the items read so far: '50+' while pages follow. */
  soFar: (count: number, more: boolean) => (more ? `${count}+` : `${count}`),
};

export const nav = {
  flows: 'Flows',
  workspaces: 'Workspaces',
  masterMode: 'Master Mode',
  guide: 'Guide',
  keys: 'Keys',
  recommendations: 'Recommendations',
  login: 'Đăng nhập',
  logout: 'Đăng xuất',
  userFallback: 'User',
  menu: 'Menu',
  main: 'Điều hướng chính',
};

/** The workspace roles' names, wherever a role is shown. */
export const workspaceRoles = {
  owner: 'Owner',
  editor: 'Editor',
  reviewer: 'Reviewer',
  auditor: 'Auditor',
} as const;

export const notFound = {
  title: 'Page Not Found',
  text: 'Trang bạn tìm không tồn tại.',
  home: 'Về trang chủ',
};

export const flowsList = {
  heading: 'Workflows',
  headingFirst: 'Bắt đầu tạo Workflow đầu tiên',
  aiFlowCreator: 'AI Flow Creator',
  aiCreator: 'AI Creator',
  createManual: 'Tạo Flow thủ công',
  search: 'Search flows...',
  noMatch: 'No flows found matching your search.',
  noFlows: 'No flows created yet.',
  createFirst: 'Create Your First Flow',
  run: 'Run',
  chat: 'Chat',
  edit: 'Edit',
  menu: 'Flow actions',
  exportJson: 'Export JSON',
  exporting: 'Đang export...',
  delete: 'Delete',
  deleteConfirm: 'Are you sure you want to delete this flow?',
  stepCount: (n: number) => `${n} Steps`,
  lastRun: (when: string) => `Last run: ${when}`,
  statuses: { active: 'Active', draft: 'Draft', inactive: 'Inactive' },
  otherViews: 'Cách xem khác:',
  fastList: 'Danh sách nhanh',
  workshop: 'Workshop',
};

export const toasts = {
  success: 'Thành công',
  error: 'Lỗi',
  flowCreated: (name: string) => `Flow "${name}" đã được tạo thành công`,
  flowCreateFailed: 'Không thể tạo flow',
  deleteSuccessTitle: 'Success',
  flowDeleted: 'Flow deleted successfully',
  deleteErrorTitle: 'Error',
  flowDeleteFailed: 'Failed to delete flow',
  stepExecuted: 'Step Executed',
  stepExecutedText: (order: number) => `Step ${order} has been executed successfully`,
  executionFailed: 'Execution Failed',
  executeStepFailed: 'Failed to execute step',
  executionStartFailed: 'Execution failed',
  executionStartFailedText: 'Failed to start execution',
  inputRequired: 'Input Required',
  inputRequiredText: 'Step này yêu cầu user input. Vui lòng nhập input trước khi execute.',
  stopped: 'Đã dừng execution',
  stoppedText: 'Workflow đã được dừng thành công',
  stopFailed: 'Không thể dừng execution',
  resetSuccess: 'Đã reset thành công',
  resetFailedTitle: 'Reset thất bại',
  resetFailed: 'Không thể reset execution',
  promptUpdateFailed: 'Không thể cập nhật prompt',
  resultUpdateFailed: 'Không thể cập nhật kết quả',
  resultDeleted: 'Đã xóa result',
  resultDeletedText: 'Kết quả đã được xóa thành công',
  resultDeleteFailedTitle: 'Lỗi xóa result',
  resultDeleteFailed: 'Không thể xóa kết quả',
  addStepFailed: 'Failed to add step',
  exportResultsFailed: 'Không thể xuất kết quả',
  saveSuccess: 'Đã lưu thành công',
  saveFailedTitle: 'Lưu thất bại',
  saveFailed: 'Không thể lưu thay đổi',
  updateStepFailed: 'Failed to update step',
  stepDeleted: 'Step đã được xóa khỏi flow',
  stepDeleteFailed: 'Không thể xóa step',
  noActiveExecution: 'No Active Execution',
  noActiveExecutionText: 'Please start an execution first',
  close: 'Đóng',
};

/** The in-place confirmation of something that cannot be taken back. */
export const confirmations = {
  confirm: 'Xóa',
  cancel: 'Hủy',
};

const by = (actor: string | null) => (actor ? ` bởi ${actor}` : '');

/** How long something waited, in the largest whole unit: '3 phút', '2 giờ', '1 ngày'. */
const waitedFor = (ms: number) => {
  const minutes = Math.max(0, Math.round(ms / 60_000));
  if (minutes < 1) return 'dưới 1 phút';
  if (minutes < 60) return `${minutes} phút`;
  const hours = Math.round(minutes / 60);
  return hours < 24 ? `${hours} giờ` : `${Math.round(hours / 24)} ngày`;
};

/** The History dialog: an execution's events in plain words, and the execution at any point. */
/** A review's status as every screen names it (the inbox, the run screen, the history). */
export const reviewStatus = {
  pending: 'Đang chờ',
  approved: 'Approved',
  rejected: 'Rejected',
  expired: 'Quá hạn (expired)',
  withdrawn: 'Đã rút lại',
} as const;

export const history = {
  title: 'Execution History',
  description: 'Mọi sự kiện của execution, theo thứ tự. Chọn một thời điểm để xem execution lúc đó.',
  loading: 'Đang tải...',
  empty: 'Chưa có execution nào cho flow này.',
  loadFailed: 'Không thể tải lịch sử execution',
  execution: 'Execution',
  executionOption: (startedAt: string, status: string) => `${startedAt} · ${status}`,
  timeline: 'Timeline',
  checking: 'Đang kiểm tra record...',
  checkFailed: 'Không thể kiểm tra record',
  verified: 'Verified',
  verifiedEvents: (count: number) => `${count} sự kiện`,
  head: 'hash cuối',
  recordChanged: (position: number) =>
    `Record đã bị thay đổi ở vị trí ${position}: dữ liệu đã bị sửa, xóa hoặc đổi thứ tự bên ngoài ứng dụng`,
  keyMismatch: 'Không xác minh được: APP_SECRET của server không khớp với các record của database này',
  /** The mark of an event, a decision or a state that the record check does not prove. */
  unverified: 'không xác minh được',
  unverifiedEntry: (firstBadPosition: number | null) =>
    firstBadPosition === null
      ? 'APP_SECRET của server không khớp với record, nên không sự kiện nào kiểm tra được; nội dung dưới đây có thể không đúng sự thật'
      : `record đã bị thay đổi ở vị trí ${firstBadPosition}, nên sự kiện này trở đi không còn được hash chứng minh; nội dung có thể không đúng sự thật`,
  unverifiedState: 'execution tại thời điểm này được tính từ các sự kiện không xác minh được',
  checkpoint: (size: number, at: string) => `Checkpoint #${size} · ${at}`,
  signatureValid: 'chữ ký hợp lệ',
  signatureInvalid: 'chữ ký không hợp lệ',
  noCheckpoint: 'chưa có checkpoint nào bao gồm bản ghi này',
  auditFile: 'Audit file:',
  auditBundle: 'Bundle',
  auditBundleTitle:
    'Audit bundle: các sự kiện cùng proof trong audit log đã ký, để kiểm tra offline không cần server',
  auditVerifier: 'Kiểm tra bundle',
  unreadable: 'Sự kiện không đọc được',
  unreadableDetail: (type: string, raw: string) =>
    `Dữ liệu đã bị sửa bên ngoài ứng dụng, không còn đúng dạng của sự kiện; execution tại đây bỏ qua nó. Loại: ${type}. Dữ liệu: ${raw}`,
  point: (position: number, total: number) => `Thời điểm ${position} / ${total}`,
  slider: 'Chọn thời điểm',
  previous: 'Trước',
  next: 'Sau',
  stateAt: (position: number) => `Execution tại thời điểm ${position}`,
  status: 'Status',
  currentStep: (current: number, total: number) => `Step hiện tại: ${Math.min(current, total)} / ${total}`,
  stepTitle: (order: number, name: string) => `Step ${order}: ${name}`,
  stepPending: 'Pending',
  stepCompleted: 'Completed',
  noResults: 'Chưa có kết quả',
  version: (n: number) => `Version ${n}`,
  promptSent: 'Prompt đã gửi',
  inputSent: 'User input',
  model: (model: string, keySource: string) => `${model} · ${keySource}`,
  approvedBy: (actor: string, at: string) => `Approve bởi ${actor} · ${at}`,
  reusedFrom: (startedAt: string) => `Dùng lại: đã approve trong execution lúc ${startedAt}.`,
  openOrigin: 'Xem lịch sử execution đó',
  editedBy: (actor: string, at: string) => `Sửa bởi ${actor} · ${at}`,
  producedAt: (at: string) => `Tạo lúc ${at}`,
  diffBefore: 'Trước',
  diffAfter: 'Sau',
  unknownActor: 'User',
  /** The Reviews section: each review of the execution as an auditor reads it. */
  reviews: {
    title: 'Reviews',
    count: (n: number) => `${n} review`,
    loadFailed: 'Không thể tải các review',
    askedMembers: (names: string[]) => `Người được chỉ định: ${names.join(', ')}`,
    askedRole: (role: string) => `Mọi thành viên có role ${role}`,
    approvalsNeeded: (n: number) => `cần ${n} người approve`,
    requested: (actor: string, at: string) => `Yêu cầu bởi ${actor} · ${at}`,
    due: (at: string) => `hạn ${at}`,
    note: (note: string) => `Ghi chú: '${note}'`,
    status: reviewStatus,
    dueFired: (onDue: 'remind' | 'escalate' | 'fail', at: string) =>
      ({
        remind: `Đến hạn ${at}: đã nhắc người duyệt`,
        escalate: `Đến hạn ${at}: chuyển lên owner của workspace`,
        fail: `Hết hạn ${at}: trả lại cho người chạy`,
      })[onDue],
    handedBack: (name: string, at: string) => `${name} rời workspace · review chuyển cho owner · ${at}`,
    waited: (ms: number, pending: boolean) =>
      pending ? `Đã chờ ${waitedFor(ms)}, vẫn đang chờ` : `Chờ ${waitedFor(ms)} đến quyết định cuối`,
    noDecision: 'Chưa ai quyết định',
    unverifiedDecision:
      'quyết định này nằm trong phần record đã bị thay đổi (hoặc không kiểm tra được), nên không được coi là sự thật',
    unverifiedReview: 'review này dựa trên sự kiện không xác minh được: status có thể không đúng',
    approved: 'Approve',
    rejected: 'Reject',
    decidedBy: (actor: string, role: string | null, at: string) =>
      `${actor}${role ? ` (${role})` : ''} · ${at}`,
    comment: 'Nhận xét',
    reason: 'Lý do',
    seen: (n: number) => `Nội dung họ đã thấy khi quyết định (${n} kết quả)`,
    deleted: '(kết quả đã bị xóa trước khi quyết định)',
  },
  words: {
    executionStarted: (actor: string | null) => `Execution bắt đầu${by(actor)}`,
    stepList: (steps: string[]) => steps.join(', '),
    stepsSynced: 'Các step của flow đã thay đổi',
    resultsReused: (steps: string[], sourceStartedAt: string) =>
      `Dùng lại kết quả đã approve của ${steps.join(', ')} từ execution lúc ${formatDateTime(sourceStartedAt)}`,
    step: (order: number, name: string | null) => (name ? `Step ${order} (${name})` : `Step ${order}`),
    runStarted: (step: string, input: string) => `${step} bắt đầu chạy với input '${input}'`,
    runAgain: (step: string, version: number, input: string) =>
      `${step} chạy lại (version ${version}) với input '${input}'`,
    runModel: (model: string, keySource: string) => `Model ${model} · ${keySource}`,
    keySources: { own: 'API key của bạn', default: 'API key mặc định', offline: 'Offline model' },
    defaultInput: 'Run mode execution - no additional input',
    runSucceeded: (step: string, count: number) => `${step} chạy xong: ${count} kết quả`,
    resultLabels: (labels: string[]) => labels.map((label) => `'${label}'`).join(', '),
    runFailed: (step: string, message: string) => `${step} chạy thất bại: ${message}`,
    resultApproved: (label: string, actor: string | null) => `Kết quả '${label}' được approve${by(actor)}`,
    resultUnapproved: (label: string, actor: string | null) => `Kết quả '${label}' bị bỏ approve${by(actor)}`,
    resultEdited: (label: string, actor: string | null) => `Kết quả '${label}' được sửa${by(actor)}`,
    labelChanged: (before: string, after: string) => `Đổi label '${before}' → '${after}'`,
    resultDeleted: (label: string, actor: string | null) => `Kết quả '${label}' bị xóa${by(actor)}`,
    deletedBecomesRejectedIdea: 'Nội dung được lưu làm rejected idea',
    reviewRequested: (step: string, who: string, actor: string | null) =>
      `${step} chờ duyệt (review) bởi ${who}${actor ? ` · yêu cầu bởi ${actor}` : ''}`,
    reviewAskedMembers: (count: number) => `${count} người được chỉ định`,
    reviewAskedRole: (role: string) => `một thành viên có role ${role}`,
    reviewApprovals: (needed: number, dueAt: string | null, note: string | null) =>
      [
        `Cần ${needed} người approve`,
        dueAt ? `hạn ${formatDateTime(dueAt)}` : null,
        note ? `ghi chú: '${note}'` : null,
      ]
        .filter(Boolean)
        .join(' · '),
    reviewApproved: (
      step: string,
      actor: string | null,
      role: string | null,
      given: number,
      needed: number,
      byOwner: boolean,
    ) =>
      `${step} được approve${by(actor)}${role ? ` (${role})` : ''} · ${
        byOwner ? 'owner quyết định vì không còn đủ người duyệt' : `${Math.min(given, needed)}/${needed}`
      }`,
    reviewRejected: (step: string, actor: string | null, role: string | null) =>
      `${step} bị từ chối (reject)${by(actor)}${role ? ` (${role})` : ''}: trả lại cho người chạy`,
    reviewDecisionDetail: (waitedMs: number, text: string | null) =>
      [`Đã chờ ${waitedFor(waitedMs)}`, text ? `'${text}'` : null].filter(Boolean).join(' · '),
    reviewDue: (step: string, onDue: 'remind' | 'escalate' | 'fail') =>
      ({
        remind: `${step}: review đến hạn · đã nhắc người duyệt (reminder)`,
        escalate: `${step}: review đến hạn · chuyển lên owner của workspace (escalate)`,
        fail: `${step}: review hết hạn (expired): trả lại cho người chạy`,
      })[onDue],
    reviewHandedBack: (step: string, userId: string) =>
      `${step}: người duyệt ${userId.slice(0, 8)} đã rời workspace · review chuyển cho owner`,
    reviewSentToOwners: (step: string) =>
      `${step}: không còn đủ người có thể duyệt · review chuyển cho owner của workspace`,
    reviewAskedAgain: (because: 'edited' | 'deleted') =>
      because === 'edited'
        ? 'Yêu cầu lại vì kết quả đã được sửa: các approve trước không còn hiệu lực'
        : 'Yêu cầu lại vì một kết quả đã bị xóa: các approve trước không còn hiệu lực',
    reviewWithdrawn: (step: string) =>
      `${step}: review được rút lại (execution được reset, hoặc kết quả đã thay đổi)`,
    executionStopped: (actor: string | null) => `Execution đã dừng${by(actor)}`,
    executionReset: (actor: string | null) => `Execution được reset${by(actor)}`,
    resetDetail: 'Mọi step trở về Pending; các kết quả trước vẫn được giữ trong lịch sử',
    executionCompleted: 'Execution hoàn thành',
    unknownResult: '(kết quả không rõ)',
  },
};

/** Why a button is disabled, shown as its tooltip and read with it: what is missing, or what to do first. */
export const whyDisabled = {
  flowFormIncomplete: 'Nhập tên và mô tả flow trước.',
  noChanges: 'Chưa có thay đổi nào để lưu.',
  noLogs: 'Chưa có log nào để xóa.',
  noSuggestions: 'Chưa có gợi ý nào để xóa.',
  noMessages: 'Chưa có tin nhắn nào để xóa.',
  noSteps: 'Flow chưa có step nào.',
  needsInput: 'Step này yêu cầu input: nhập input vào ô Input trước khi execute.',
  stepRunning: 'Step này đang chạy, vui lòng đợi.',
  resetWhileRunning: 'Một step đang chạy: đợi nó xong rồi mới reset.',
  notRunning: 'Execution không còn chạy: không có gì để dừng.',
  quickRunActive: 'QuickRun đang chạy.',
  noRowSelected: 'Chọn một step trước.',
  noRows: 'Chưa có step nào để chạy.',
  needStepName: 'Nhập tên step trước.',
  noRejectedIdeas: 'Chưa có rejected idea nào để xóa.',
  lastChoice: 'Cần ít nhất một lựa chọn: không thể xóa lựa chọn cuối cùng.',
  noMessageText: 'Nhập tin nhắn trước.',
  chooseAction: 'Chọn một hành động trước.',
};

export const runMode = {
  title: 'Run Mode',
  subtitle: 'Chạy từng step, xem và duyệt kết quả trước khi đi tiếp.',
  namedExecution: 'Đang xem execution được mở từ link (ví dụ một review), không phải execution mới nhất.',
  namedExecutionMissing: 'Không tìm thấy execution trong link, hoặc bạn không có quyền xem nó.',
  showLatestExecution: 'Xem execution mới nhất',
  exportResults: 'Export Results',
  /** The lines of the Export Results text file. */
  exportFile: {
    step: (order: number, name: string) => `Step ${order}: ${name}`,
    systemPrompt: 'System Prompt:',
    result: (label: string, createdAt: string) => `--- ${label} (${createdAt})`,
  },
  addStep: 'Add Step',
  newStepName: (n: number) => `New Step ${n}`,
  newStepPrompt: 'Nhập system prompt cho step này. Dùng [[step-N]] để tham chiếu kết quả của step N.',
  empty: 'Chưa có step nào trong flow',
  createFirstStep: 'Tạo step đầu tiên',
  prompt: 'Prompt',
  input: 'Input',
  inputPlaceholder: 'Nhập input cho step này (không bắt buộc)...',
  inputRequiredPlaceholder: 'Step này yêu cầu input...',
  execute: 'Execute',
  executeIteration: (n: number) => `Execute (lần ${n})`,
  rerun: 'Re-run',
  needsInput: 'Cần input',
  stepStopped: 'Stopped',
  waitingInput: 'Chờ input',
  waitingReview: 'Chờ review',
  waitingInputText: 'Step này đang chờ input của bạn: nhập vào ô Input rồi bấm Execute để chạy tiếp.',
  running: 'Đang chạy...',
  savePrompt: 'Lưu prompt',
  cancelEdit: 'Huỷ',
  editPrompt: 'Sửa prompt',
  promptEmpty: '(prompt trống)',
  approved: 'Approved',
  pending: 'Pending',
  selected: 'Selected',
  approve: 'Approve',
  editResult: 'Sửa kết quả',
  deleteResult: 'Xóa kết quả',
  confirmDeleteResult: 'Bạn có chắc muốn xóa kết quả này? Nội dung sẽ được lưu làm rejected idea.',
  resultLabel: 'Label',
  resultLabelPlaceholder: (order: number) => `step_${order}`,
  resultText: 'Nội dung',
  saveResult: 'Lưu',
  version: (n: number) => `Version ${n}`,
  previousVersion: 'Version trước',
  nextVersion: 'Version sau',
  results: 'Kết quả',
  noResults: 'Chưa có kết quả',
  streaming: 'AI đang trả lời...',
  runFailed: (message: string) => `Lần chạy thất bại: ${message}`,
  outputMode: {
    single: 'Single Output',
    multiple: 'Multiple Output',
    multiple_choice: 'Choice',
    loop: 'Loop',
  },
  choiceCount: (n: number) => `${n} options`,
  loopMax: (n: number) => `Max: ${n}x`,
  inputFrom: (order: number) => `Input: Step ${order}`,
  requiresInput: 'Yêu cầu input',
};

export const markdown = {
  empty: 'No content',
  failed: 'Error rendering markdown. Showing raw content:',
};

export const dates = {
  locale: DATE_LOCALE,
};

export const lightFlows = {
  heading: 'Workflows',
  fastSubtitle: 'Danh sách nhanh: chỉ tên, mô tả và lối vào từng flow.',
  fullList: 'Danh sách đầy đủ',
  optimizedVersion: 'Phiên bản tối ưu',
  workshop: 'Workshop',
  empty: 'No flows created yet.',
  createFirst: 'Create Your First Flow',
  loadFailed: 'Không thể tải danh sách flows',
  stepCount: (n: number) => `${n} Steps`,
  statuses: { active: 'Active', draft: 'Draft', inactive: 'Inactive' },
  run: 'Run',
  chat: 'Chat',
  edit: 'Edit',
  redirecting: 'Đang chuyển hướng đến phiên bản tối ưu...',
  staticSubtitle: 'Phiên bản tối ưu: trang tĩnh, mở ngay, không tải dữ liệu.',
  staticSignedIn: 'Chọn nơi bạn muốn làm việc:',
  staticSignedOut: 'Đăng nhập để xem và chạy các workflow của bạn.',
  staticLinks: [
    { href: '/flows', title: 'Danh sách Workflows', text: 'Tìm kiếm, tạo, chạy, export và xóa flows.' },
    { href: '/flows-fast', title: 'Danh sách nhanh', text: 'Chỉ tên và lối vào từng flow.' },
    { href: '/ai-flow-creator', title: 'AI Flow Creator', text: 'Mô tả công việc, AI đề xuất workflow.' },
    { href: '/sessions', title: 'Sessions', text: 'Quay lại đúng flow và execution đã lưu.' },
  ],
  signIn: 'Đăng nhập',
};
