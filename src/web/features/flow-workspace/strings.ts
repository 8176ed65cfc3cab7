/**
 * The visible strings of the flow workspace: its modes (edit, run, chat), its dialogs (logs,
 * suggestions, conversation context) and the Flow History screen. Their texts are a contract,
 * checked with the shared ones in lib/strings.test.ts; templated ones are functions.
 */

export const workspace = {
  readOnly: 'Chỉ xem',
  readOnlyText: 'Vai trò của bạn trong workspace này không cho chạy hay sửa flow.',
  removedTitle: 'Bạn không còn ở workspace này',
  removedText:
    'Một owner đã xóa bạn khỏi workspace của flow này: trang chỉ còn để xem những gì đã tải, các nút đã tắt.',
  toWorkspaces: 'Về danh sách workspace',
  notFoundTitle: 'Flow not found',
  notFoundText: 'The requested flow does not exist.',
  backToFlows: 'Back to Flows',
  modes: { edit: 'Edit', run: 'Run', chat: 'Chat', master: 'Master' },
  modeSwitch: 'Mode',
  save: 'Save',
  logs: 'Logs',
  history: 'History',
  versions: 'Versions',
  datasets: 'Datasets',
  experiments: 'Experiments',
  aiSuggestions: 'AI Suggestions',
  backToRun: 'Quay lại Run Mode',
  unsavedChanges: 'Có thay đổi',
  unsavedChangesHint: 'Chưa lưu: bấm Save (hoặc Lưu step) để lưu, nếu không sẽ mất khi đóng tab.',
  stepsChanged: 'Đã lưu step',
  stepsChangedHint:
    'Step thêm, xóa hoặc Lưu step được lưu ngay và mỗi lần là một phiên bản. Save xác nhận và tắt dấu này.',
};

export const logs = {
  title: 'AI Request Logs',
  loading: 'Đang tải...',
  empty: 'Chưa có request nào.',
  step: (order: number) => `Step ${order}`,
  running: 'Đang chạy',
  success: 'Thành công',
  failure: 'Thất bại',
  finalPrompt: 'Final prompt',
  response: 'AI response',
  userInput: 'User input',
  labels: 'Labels',
  unresolvedLabels: 'Labels không tìm thấy',
  error: 'Error',
  keySource: { own: 'API key của bạn', default: 'API key mặc định', offline: 'Offline model' },
  reasks: (n: number) => `Hỏi lại ${n}× (sai định dạng JSON)`,
  /** Who answered: the model's provider, and the provider's name of the model. */
  provider: (provider: string) => `Provider: ${provider}`,
  model: (model: string) => `Model: ${model}`,
  tokens: (input: string, output: string) => `Tokens: ${input} vào · ${output} ra`,
  tokensTitle: 'Số token model đọc (vào) và viết (ra), như provider báo',
  firstToken: (wait: string) => `Token đầu tiên sau ${wait}`,
  firstTokenTitle: 'Từ lúc gửi request đến khi model viết chữ đầu tiên',
  clear: 'Xóa logs',
  clearConfirm: 'Xóa mọi log của flow này?',
  clearFailed: 'Failed to clear logs',
  context: 'Context',
  eventDetails: 'Chi tiết kỹ thuật (event log)',
  /** Where the request sits in the event log, for `npm run events`. */
  startedEvent: (position: number | null) => (position === null ? 'Event' : `Event #${position}`),
  startedEventTitle: (eventId: string) => `StepRunStarted · ${eventId}`,
  command: 'Command',
  eventsCommand: (executionId: string) => `npm run -s events -- show ${executionId}`,
  copyEventsCommand: 'Copy lệnh xem event log',
  eventsCommandCopied: 'Đã copy!',
  copyFailed: 'Không thể copy vào clipboard',
};

/** The Flow History screen: every version of a flow, any two compared, and a past one restored. */
export const flowVersions = {
  title: 'Flow History',
  description:
    'Mỗi lần sửa flow hoặc step tạo một version mới. Chọn hai version để so sánh, hoặc khôi phục một version trước.',
  back: 'Quay lại workspace',
  loading: 'Đang tải...',
  loadFailed: 'Không thể tải lịch sử flow',
  empty: 'Flow này chưa có version nào.',
  timeline: 'Các version của flow',
  version: (n: number) => `Version ${n}`,
  current: 'Hiện tại',
  madeBy: (actor: string | null, at: string) => `${actor ?? 'User'} · ${at}`,
  executions: (n: number) => `${n} execution đã chạy version này`,
  execution: (startedAt: string, status: string) => `${startedAt} · ${status}`,
  openExecution: (startedAt: string) => `Xem lịch sử execution bắt đầu lúc ${startedAt}`,
  compare: 'So sánh',
  compareFrom: 'Từ version',
  compareTo: 'Đến version',
  runBoth: 'Chạy cả hai trên dataset…',
  runBothHint: (older: number, newer: number) =>
    `Mở form experiment: chạy Version ${newer} trên một dataset, so với một experiment của Version ${older}.`,
  fromTag: 'Từ',
  toTag: 'Đến',
  versionOption: (n: number, summary: string) => `Version ${n} · ${summary}`,
  sameVersion: (n: number) => `Cùng một version: đây là nội dung của Version ${n}.`,
  noChanges: (from: number, to: number) => `Không có thay đổi nào từ Version ${from} đến Version ${to}.`,
  flowSection: 'Flow',
  stepsSection: 'Steps',
  noSteps: 'Không có step nào.',
  nameChanged: (before: string, after: string) => `Tên: "${before}" → "${after}"`,
  statusChanged: (before: string, after: string) => `Status: ${before} → ${after}`,
  descriptionChanged: 'Mô tả',
  stepTitle: (order: number, name: string) => `Step ${order}: ${name}`,
  stepKinds: { added: 'Thêm mới', removed: 'Đã xóa', changed: 'Đã sửa', unchanged: 'Không đổi' },
  renamedFrom: (before: string) => `Đổi tên từ "${before}"`,
  moved: (before: number, after: number) => `Thứ tự: ${before} → ${after}`,
  otherFields: (fields: string[]) => `Cũng thay đổi: ${fields.join(', ')}`,
  fields: {
    outputMode: 'output mode',
    inputSources: 'input sources',
    choices: 'choices',
    loopTargetStepId: 'loop target',
    maxLoopIterations: 'số vòng lặp',
    requiresUserInput: 'user input',
  },
  prompt: 'Prompt',
  promptUnchanged: 'Prompt không đổi',
  promptEmpty: '(prompt trống)',
  restore: 'Khôi phục version này',
  restoreTitle: (n: number) => `Khôi phục Version ${n}?`,
  restoreText: (n: number) =>
    `Tên, mô tả, status và các step của flow (mỗi step: tên, thứ tự, prompt, output mode, choices, input sources, loop, user input) sẽ trở lại như ở Version ${n}. Việc khôi phục tạo một version mới; không version nào bị xoá.`,
  unsavedEdits: 'Những chỉnh sửa chưa lưu của flow này trong editor sẽ bị bỏ.',
  cancel: 'Huỷ',
  confirmRestore: 'Khôi phục',
  restoring: 'Đang khôi phục...',
  restored: 'Đã khôi phục',
  restoredText: (n: number, next: number) =>
    `Flow đã trở lại như Version ${n}; lần khôi phục này là Version ${next}.`,
  restoreFailedTitle: 'Khôi phục thất bại',
  restoreFailed: 'Không thể khôi phục version này',
  flowVersion: (n: number) => `Flow version ${n}`,
  syncedTo: 'Các step đồng bộ theo',
  flowVersionTitle: (n: number) => `Xem Version ${n} trong Flow History`,
};

export const suggestions = {
  title: 'AI Suggestions',
  description:
    'Gợi ý cải thiện từng step và một khuyến nghị chiến lược cho cả flow, dựa trên prompts, request logs, các kết quả đã sửa và rejected ideas của flow.',
  generate: 'Tạo gợi ý',
  generating: 'Đang tạo gợi ý...',
  clear: 'Xóa gợi ý',
  loading: 'Đang tải...',
  loadFailed: 'Không thể tải gợi ý AI',
  empty: 'Chưa có gợi ý nào. Bấm "Tạo gợi ý" để AI xem xét flow này.',
  stepSuggestions: 'Gợi ý theo step',
  noStepSuggestions: 'Không có gợi ý riêng cho step nào.',
  step: (order: number, name: string) => `Step ${order}: ${name}`,
  strategicRecommendation: 'Khuyến nghị chiến lược',
  stepCount: (n: number) => `${n} steps`,
  generateFailed: 'Không thể tạo gợi ý AI',
  clearFailed: 'Không thể xóa gợi ý AI',
};

export const conversationContext = {
  title: 'AI Conversation Context',
  loadFailed: 'Không thể tải conversation context',
  description:
    'Những gì flow này nhớ giữa các lần chạy. Ghi chú và rejected ideas được thêm vào prompt của mỗi lần chạy sau.',
  loading: 'Đang tải...',
  tabs: { overview: 'Tổng Quan', conversation: 'Conversation', rejected: 'Rejected Ideas', notes: 'Ghi Chú' },
  size: 'Context size',
  sizeKb: (kb: number) => `${kb.toFixed(2)} KB`,
  conversationChars: 'Conversation',
  rejectedChars: 'Rejected ideas',
  notesChars: 'Ghi chú',
  characters: (n: number) => `${n.toLocaleString('vi-VN')} ký tự`,
  version: 'Version',
  lastUpdated: 'Cập nhật lần cuối',
  never: 'Chưa có',
  emptyConversation: 'Chưa có hội thoại nào. Chạy một step để bắt đầu.',
  emptyRejected: 'Chưa có rejected idea nào. Khi bạn xóa một kết quả, nội dung của nó được lưu ở đây.',
  rejectedNote: 'Các kết quả đã xóa được thêm vào mọi prompt của flow (tối đa 20.000 ký tự, mới nhất trước).',
  clearRejected: 'Xóa rejected ideas',
  clearRejectedConfirm: 'Bỏ mọi rejected idea khỏi prompts của flow này?',
  clearRejectedFailed: 'Không xóa được rejected ideas',
  notesPlaceholder: 'Ghi chú cho AI: yêu cầu, giọng văn, những điều cần tránh...',
  notesLength: (n: number, max: number) => `${n}/${max}`,
  saveNotes: 'Lưu ghi chú',
  saving: 'Đang lưu...',
  saved: 'Đã lưu ghi chú',
  createToast: 'Không thể tạo conversation context',
  createFailed: 'Failed to create context',
  updateFailed: 'Failed to update notes',
};

/** The model that answers a step, picked in edit mode. */
/** The step's model picker; the picker's own strings are the models feature's (shared with master mode). */
export const stepModel = {
  description: 'Model trả lời step này. Mặc định là model mặc định của server.',
  saveFailed: 'Không thể lưu model của step',
};

export const editMode = {
  flowDetails: 'Flow',
  flowDetailsHint: 'Tên, mô tả và status được lưu khi bấm Save.',
  flowName: 'Tên Flow',
  flowDescription: 'Mô tả',
  flowStatus: 'Status',
  structure: 'Flow Structure',
  addStep: 'Add Step',
  selectStep: 'Select a step from the flow tree to view details',
  stepTitle: (order: number, name: string) => `Step ${order}: ${name}`,
  singleOutput: 'Single Output',
  multipleOutput: 'Multiple Output',
  choice: 'Choice',
  loop: 'Loop',
  systemPrompt: 'System Prompt',
  noSteps: 'Chưa có step nào trong flow',
  executionStatus: 'Execution Status',
  noExecution: 'Chưa có execution. Bấm Execute trong Run Mode để bắt đầu.',
  progress: 'Tiến độ',
  currentStep: 'Step hiện tại',
  currentStepOf: (order: number, total: number) => `Step ${Math.min(order, total)}/${total}`,
  allStepsDone: 'Đã chạy xong tất cả các step',
  edit: 'Chỉnh sửa',
  cancelEdit: 'Huỷ',
  saveStep: 'Lưu step',
  deleteStep: 'Xóa step',
  confirmDeleteStep: (order: number, name: string) => `Bạn có chắc muốn xóa Step ${order}: ${name}?`,
  configuration: 'Configuration',
  stepName: 'Step Name',
  labelsTitle: 'Labels trong prompt',
  noLabels: 'Chưa có [[label]] nào. Dùng [[step-N]] để tham chiếu kết quả của step N.',
  labelRefersTo: (order: number) => `Step ${order}`,
  outputModeLabel: 'Output Mode',
  outputModes: {
    single: 'Single Output',
    multiple: 'Multiple Output',
    multiple_choice: 'Multiple Choice',
    loop: 'Loop',
  },
  choices: 'Choices',
  choicePlaceholder: (n: number) => `Choice ${n}`,
  addChoice: 'Add Choice',
  removeChoice: (n: number) => `Xóa choice ${n}`,
  needChoice: 'Add at least one choice option',
  needName: 'Tên step không được để trống',
  loopIterations: 'Số lần lặp (1-100)',
  loopTarget: 'Loop target',
  inputSources: 'Input Sources',
  noEarlierSteps: 'Không có step nào trước step này.',
  requiresInput: 'Yêu cầu user input',
  testExecution: 'Test Execution',
  testInputPlaceholder: 'Nhập input để chạy thử step này...',
  testExecute: 'Test Execute',
  testRunning: 'Đang chạy...',
  testAnswer: 'Câu trả lời',
  noResults: 'Step chưa có kết quả trong execution gần nhất.',
  /** A save or step change refused because the flow changed elsewhere since this tab read it (412). */
  versionMismatchTitle: 'Chưa lưu được',
  versionMismatch: 'Flow đã được thay đổi ở nơi khác — đã tải lại bản mới nhất',
};

/** A run whose prompt went on with results nobody had approved (QuickRun runs on without review). */
export const unreviewedResults = {
  used: 'Dùng kết quả chưa duyệt',
  /** One such result: its step, and its label when it has one. */
  name: (stepOrder: number, label: string | null) =>
    label ? `Step ${stepOrder} (${label})` : `Step ${stepOrder}`,
  title:
    'Khi chạy, chưa có kết quả nào của step này được approve nên prompt đã dùng kết quả mới nhất, chưa qua duyệt.',
};

/** Re-running from a step: a new execution reuses the approved results of the steps before it. */
export const rerunFromStep = {
  action: 'Chạy lại từ đây',
  actionTitle: (order: number) => `Chạy lại từ step ${order} trong một execution mới`,
  confirm: (order: number) =>
    `Chạy lại từ step ${order}?\n\nMột execution mới sẽ bắt đầu: kết quả đã approve của các step trước được dùng lại (không gọi AI), rồi step ${order} chạy từ đây. Execution hiện tại vẫn được giữ trong lịch sử.`,
  started: 'Execution mới đã bắt đầu',
  startedText: (order: number) => `Các step trước step ${order} dùng lại kết quả đã approve.`,
  failed: 'Không thể chạy lại từ step này',
  reusedAt: (startedAt: string) => `Reused · ${startedAt}`,
  reusedTitle: (startedAt: string) => `Kết quả đã approve, dùng lại từ execution bắt đầu lúc ${startedAt}`,
};

export const queueCard = {
  title: 'Execution Queue',
  progressLabel: 'Tiến độ của execution',
  noExecution: 'Chưa có execution. Bấm Execute ở một step để bắt đầu.',
  status: {
    running: 'Running',
    waiting: 'Đang chờ',
    stopped: 'Stopped',
    completed: 'Completed',
    failed: 'Failed',
  },
  stop: 'Stop',
  stopWhileWaiting:
    'Không có step nào đang chạy, execution đang chờ bạn. Stop sẽ kết thúc execution này: không step nào chạy được nữa cho đến khi Reset.',
  reset: 'Reset',
  live: 'Live',
  offline: 'Polling',
};

/** The step list of an execution, under the queue card; badges and result states come from runMode. */
export const stepList = {
  label: 'Danh sách step',
  /** The run button's accessible name: what it does, and on which step. */
  run: (action: string, order: number) => `${action}: Step ${order}`,
  openStep: (order: number, name: string) => `Mở step ${order}. ${name}`,
};

export const quickRun = {
  executeAll: 'Execute All',
  resume: 'Resume',
  status: {
    running: 'QuickRun đang chạy',
    paused: 'QuickRun tạm dừng',
    complete: 'QuickRun hoàn thành',
    stopped: 'QuickRun đã dừng',
  },
  pausedTitle: 'QuickRun Paused',
  pausedText: (order: number) => `Step ${order} cần input. Nhập input rồi bấm Resume để chạy tiếp.`,
};

export const chatMode = {
  backToRun: 'Quay lại Run Mode',
  settings: 'Cài đặt',
  settingsText: 'Công cụ của flow này',
  aiRequestLogs: 'AI Request Logs',
  aiRequestLogsText: 'Xem prompt đã gửi và câu trả lời của AI ở từng bước.',
  aiSuggestions: 'AI Suggestions',
  aiSuggestionsText: 'Gợi ý cải thiện từng step và cả flow',
  progress: (completed: number, total: number) => `${completed}/${total} bước`,
  progressLabel: 'Tiến độ của flow',
  emptyTitle: 'Chat với workflow',
  emptyText: 'Mỗi tin nhắn chạy bước tiếp theo của flow với nội dung bạn gửi làm input.',
  you: 'Bạn',
  stepTitle: (order: number, name: string) => (name ? `Step ${order}: ${name}` : `Step ${order}`),
  inProgress: (order: number, name: string) => `Đang thực hiện Step ${order}: ${name}...`,
  placeholder: 'Nhập tin nhắn... (Enter để gửi, Shift+Enter xuống dòng)',
  send: 'Gửi',
  clear: 'Xóa chat',
  copy: 'Sao chép',
  copied: 'Đã sao chép',
  noNextStep: 'Không có bước tiếp theo',
  noNextStepText: 'Workflow đã hoàn thành tất cả các bước',
  noStepsText: 'Flow này chưa có step nào: thêm step ở Edit mode rồi chat.',
  executeFailed: 'Lỗi thực thi',
  executeFailedText: 'Không thể thực hiện bước này',
  copyFailed: 'Lỗi sao chép',
};
