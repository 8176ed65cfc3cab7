/**
 * Every visible string of the web app. The spec's texts are a contract, so they live in one place where
 * they can be checked against it; templated ones are functions.
 */

export const app = {
  name: 'Prompt Flow Workbench',
  loading: 'Đang tải...',
};

export const nav = {
  flows: 'Flows',
  masterMode: 'Master Mode',
  guide: 'Guide',
  keys: 'Keys',
  login: 'Đăng nhập',
  logout: 'Đăng xuất',
  userFallback: 'User',
};

export const landing = {
  heroTitle: 'Xây dựng AI Workflow nhiều bước, có con người kiểm duyệt',
  heroSubtitle:
    'Chia một việc lớn thành các bước prompt nối tiếp nhau. Xem từng kết quả, sửa, duyệt rồi mới đi tiếp.',
  signIn: 'Đăng nhập để bắt đầu',
  signInShort: 'Đăng nhập',
  featuresTitle: 'Ba ý tưởng cốt lõi',
  features: [
    {
      title: 'Chain of Thought',
      text: 'Mỗi bước dùng kết quả của bước trước qua [[step-N]], nên AI suy luận theo từng chặng thay vì một câu trả lời dài.',
    },
    {
      title: 'Human-in-the-loop',
      text: 'Bạn xem, sửa và duyệt (approve) từng kết quả trước khi workflow chạy tiếp.',
    },
    {
      title: 'Prompt Library',
      text: 'Lưu các flow như những chatbot tuỳ chỉnh và chạy lại bất cứ lúc nào.',
    },
  ],
  useCasesTitle: 'Ví dụ sử dụng',
  useCases: [
    {
      title: 'Phân tích chiến lược kinh doanh',
      text: 'Phân tích thị trường → đối thủ → chiến lược định vị.',
    },
    {
      title: 'Sáng tạo nội dung marketing',
      text: 'Chân dung khách hàng → chiến lược nội dung → nội dung đa kênh.',
    },
    { title: 'Nghiên cứu sản phẩm', text: 'Nhu cầu người dùng → thiết kế giải pháp → kế hoạch MVP.' },
  ],
  comparisonTitle: 'So với chat AI thông thường',
  comparisonHeaders: { aspect: '', chat: 'Chat thông thường', flow: 'Workflow nhiều bước' },
  comparisonRows: [
    { aspect: 'Cấu trúc', chat: 'Một cuộc hội thoại dài', flow: 'Các bước rõ ràng, có thứ tự' },
    { aspect: 'Kiểm soát', chat: 'Chấp nhận câu trả lời như nó đến', flow: 'Duyệt và sửa từng kết quả' },
    { aspect: 'Tái sử dụng', chat: 'Gõ lại prompt mỗi lần', flow: 'Lưu flow, chạy lại bất cứ lúc nào' },
    { aspect: 'Theo dõi', chat: 'Khó biết AI đã dùng gì', flow: 'Xem prompt, input và kết quả từng bước' },
  ],
  ctaTitle: 'Sẵn sàng thử?',
  ctaText: 'Tạo workflow đầu tiên của bạn trong vài phút.',
};

export const notFound = {
  title: 'Page Not Found',
  text: 'Trang bạn tìm không tồn tại.',
  home: 'Về trang chủ',
};

export const firstRun = {
  welcomeTitle: 'Chào mừng bạn!',
  welcomeText: 'Workflow là chuỗi các bước prompt AI. Kết quả của mỗi bước trở thành đầu vào cho bước sau.',
  ideasTitle: 'Ba ý tưởng cốt lõi',
  ideas: [
    {
      title: 'Chain of Thought',
      text: 'Chia việc lớn thành các bước nhỏ; mỗi bước dùng kết quả bước trước qua [[step-N]].',
    },
    { title: 'Human-in-the-loop', text: 'Xem, sửa và duyệt từng kết quả trước khi đi tiếp.' },
    { title: 'Prompt Library', text: 'Lưu flow như chatbot tuỳ chỉnh để dùng lại.' },
  ],
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
};

export const exportFlow = {
  title: 'Export Workflow JSON',
  description: 'Copy JSON bên dưới để dùng với AI Creator (tab Import) hoặc để lưu trữ.',
  copy: 'Copy JSON',
  copied: 'Đã copy!',
  copiedTitle: 'Đã copy thành công!',
  copiedText: (name: string) => `JSON của workflow "${name}" đã được copy vào clipboard.`,
  copyFailedTitle: 'Lỗi copy',
  copyFailed: 'Không thể copy vào clipboard',
  failedTitle: 'Lỗi export',
  failed: 'Không thể export flow',
};

export const createFlow = {
  title: 'Tạo Flow Mới',
  description: 'Đặt tên và mô tả cho workflow mới.',
  name: 'Tên Flow',
  summary: 'Mô tả',
  cancel: 'Cancel',
  submit: 'Tạo Flow',
  submitting: 'Đang tạo...',
};

export const aiCreator = {
  title: 'AI Workflow Creator',
  coming: 'Tạo workflow bằng AI, từ template hoặc import JSON sẽ có trong phiên bản tới.',
  close: 'Đóng',
};

export const aiFlowCreator = {
  title: 'AI Flow Creator',
  subtitle:
    'Mô tả workflow bạn muốn tạo. AI cải thiện mô tả, đề xuất các bước, và bạn chỉnh sửa cho đến khi hài lòng.',
  chatTitle: 'Trò chuyện với AI',
  previewTitle: 'Xem trước Workflow',
  welcome:
    'Xin chào! Hãy mô tả workflow bạn muốn tạo: mục tiêu, đầu vào và kết quả mong muốn. Tôi sẽ cải thiện mô tả, rồi đề xuất các bước của workflow.',
  improvement: (improvement: string) =>
    `Đây là mô tả đã được cải thiện:\n\n${improvement}\n\nBổ sung hoặc sửa điều bạn muốn (hoặc chỉ cần trả lời "OK"): tin nhắn tiếp theo sẽ tạo đề xuất workflow.`,
  proposal: (name: string, stepCount: number) =>
    `Đề xuất workflow "${name}" gồm ${stepCount} bước đã sẵn sàng ở khung bên phải. Bấm "Xác nhận & Lưu" để lưu, hoặc "Tiếp tục chỉnh sửa" để thay đổi.`,
  askWhatToChange:
    'Bạn muốn thay đổi điều gì trong workflow? Hãy cho biết bước nào cần thêm, bớt hoặc sửa, và tôi sẽ đề xuất lại.',
  saved: (name: string) => `Workflow "${name}" đã được lưu vào danh sách flows.`,
  senders: { system: 'Hệ thống', user: 'Bạn', ai: 'AI' },
  phase: {
    initial: 'Mô tả',
    improvement: 'Cải thiện mô tả',
    proposal: 'Đề xuất',
    editing: 'Chỉnh sửa',
    confirmed: 'Đã xác nhận',
  },
  placeholder: 'Mô tả workflow bạn muốn tạo... (Enter để gửi, Shift+Enter xuống dòng)',
  placeholderConfirmed: 'Workflow đã được lưu. Bấm "Tạo workflow mới" để bắt đầu lại.',
  send: 'Gửi',
  thinking: 'AI đang suy nghĩ...',
  saving: 'Đang lưu...',
  emptyPreview: 'Chưa có đề xuất. Gửi mô tả workflow, rồi gửi thêm một tin nhắn để nhận đề xuất.',
  improvedDescription: 'Mô tả đã cải thiện',
  steps: (n: number) => `Các bước (${n})`,
  step: (order: number) => `Step ${order}`,
  outputMode: { single: 'Một kết quả', multiple: 'Nhiều kết quả' },
  requiresInput: 'Cần input',
  inputFrom: (sources: string) => `Input: ${sources}`,
  confirmedBadge: 'Đã xác nhận',
  confirm: 'Xác nhận & Lưu',
  continueEditing: 'Tiếp tục chỉnh sửa',
  viewFlows: 'Xem danh sách Flows',
  createNew: 'Tạo workflow mới',
  improveFailed: 'Không thể tạo gợi ý cải thiện. Vui lòng thử lại.',
  proposalFailed: 'Không thể tạo đề xuất workflow. Vui lòng thử lại.',
  saveFailed: 'Không thể tạo và lưu workflow. Vui lòng thử lại.',
  savedToast: 'Workflow đã được tạo và lưu vào danh sách!',
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
  close: 'Đóng',
};

export const workspace = {
  notFoundTitle: 'Flow not found',
  notFoundText: 'The requested flow does not exist.',
  backToFlows: 'Back to Flows',
  modes: { edit: 'Edit', run: 'Run', chat: 'Chat', master: 'Master' },
  save: 'Save',
  logs: 'Logs',
  aiSuggestions: 'AI Suggestions',
  backToRun: 'Quay lại Run Mode',
  masterComing: 'Master Mode sẽ có trong phiên bản tới. Hãy dùng Run Mode để chạy flow từng bước.',
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
  unresolvedLabels: 'Unresolved labels',
  error: 'Error',
  keySource: { own: 'API key của bạn', default: 'API key mặc định', offline: 'Offline model' },
  clear: 'Xóa logs',
  clearFailed: 'Failed to clear logs',
  context: 'Context',
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
  strategicRecommendation: 'Strategic recommendation',
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
  notesPlaceholder: 'Ghi chú cho AI: yêu cầu, giọng văn, những điều cần tránh...',
  notesLength: (n: number, max: number) => `${n}/${max}`,
  saveNotes: 'Lưu ghi chú',
  saving: 'Đang lưu...',
  saved: 'Đã lưu ghi chú',
  createToast: 'Không thể tạo conversation context',
  createFailed: 'Failed to create context',
  updateFailed: 'Failed to update notes',
};

export const editMode = {
  structure: 'Flow Structure',
  addStep: 'Add Step',
  selectStep: 'Select a step from the flow tree to view details',
  stepTitle: (order: number, name: string) => `Step ${order}: ${name}`,
  singleOutput: 'Single Output',
  multipleOutput: 'Multiple Output',
  choice: 'Choice',
  loop: 'Loop',
  systemPrompt: 'System Prompt',
  editorComing: 'Trình chỉnh sửa step đầy đủ sẽ có trong phiên bản tới; prompt có thể sửa trong Run Mode.',
  noSteps: 'Chưa có step nào trong flow',
};

export const runMode = {
  title: 'Run Mode',
  subtitle: 'Chạy từng step, xem và duyệt kết quả trước khi đi tiếp.',
  exportResults: 'Export Results',
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

export const queueCard = {
  title: 'Execution Queue',
  noExecution: 'Chưa có execution. Bấm Execute ở một step để bắt đầu.',
  status: { running: 'Running', stopped: 'Stopped', completed: 'Completed', failed: 'Failed' },
  stop: 'Stop',
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
  executeFailed: 'Lỗi thực thi',
  executeFailedText: 'Không thể thực hiện bước này',
  copyFailed: 'Lỗi sao chép',
};

export const markdown = {
  empty: 'No content',
  failed: 'Error rendering markdown. Showing raw content:',
};

export const apiKeys = {
  title: 'Quản lý API Keys',
  subtitle: 'Dùng Gemini API key của riêng bạn để chạy workflow không giới hạn.',
  addKey: 'Thêm API Key',
  usageTitle: 'Mức sử dụng',
  unlimitedText: 'Bạn đang dùng API key của riêng mình: không giới hạn số steps.',
  freeText: (allowance: number) => `Không có API key riêng, bạn có ${allowance} steps miễn phí.`,
  usedSteps: (n: number) => `Đã dùng: ${n} steps`,
  remainingSteps: (n: number) => `Còn lại: ${n} steps`,
  remainingUnlimited: 'Còn lại: Không giới hạn',
  noActiveKeyTitle: 'Chưa có API key nào đang hoạt động',
  noActiveKeyText:
    'Bạn đang dùng API key mặc định với số steps miễn phí có hạn. Thêm Gemini API key của riêng bạn để sử dụng không giới hạn.',
  loadFailed: 'Không thể tải API keys',
  listTitle: 'API Keys của bạn',
  empty: 'Chưa có API key nào.',
  keyType: (type: string) => (type === 'gemini' ? 'Gemini' : type),
  active: 'Đang hoạt động',
  inactive: 'Không hoạt động',
  createdAt: (when: string) => `Tạo lúc: ${when}`,
  lastUsed: (when: string) => `Dùng lần cuối: ${when}`,
  neverUsed: 'Chưa sử dụng',
  delete: 'Xóa API key',
  deleteConfirm: 'Bạn có chắc muốn xóa API key này?',
  dialogTitle: 'Thêm API Key',
  dialogDescription: 'Key được mã hóa khi lưu và không bao giờ được hiển thị lại.',
  keyName: 'Tên key',
  keyNamePlaceholder: 'VD: Gemini cá nhân',
  apiKey: 'API Key',
  apiKeyPlaceholder: 'Dán API key (bắt đầu bằng "AI...")',
  cancel: 'Hủy',
  submit: 'Thêm Key',
  submitting: 'Đang thêm...',
  fillInEverything: 'Vui lòng điền đầy đủ thông tin',
  guideTitle: 'Cách lấy Gemini API key',
  guideSteps: [
    'Mở trang API key của Google AI Studio:',
    'Đăng nhập bằng tài khoản Google của bạn.',
    'Bấm "Create API key" và chọn (hoặc tạo) một project.',
    'Sao chép API key vừa tạo (bắt đầu bằng "AI").',
    'Bấm "Thêm API Key" ở trang này, đặt tên và dán key vào.',
  ],
  guideLink: 'aistudio.google.com/apikey',
  guideUrl: 'https://aistudio.google.com/apikey',
  added: 'API key đã được thêm thành công!',
  addFailed: 'Không thể thêm API key',
  deleted: 'API key đã được xóa',
  deleteFailed: 'Không thể xóa API key',
  signedOutTitle: 'Chưa đăng nhập',
  signedOutText: 'Bạn cần đăng nhập để tiếp tục...',
};

/** Screens whose content comes in later work: their title and an honest line. */
export const placeholders = {
  coming: 'Màn hình này đang được xây dựng và sẽ có trong phiên bản tới.',
  backHome: 'Về danh sách Flows',
  sessions: 'Quản lý Sessions',
  recommendations: 'Workflow Recommendations',
  aiFlowCreator: 'AI Flow Creator',
  guide: 'Guide',
  masterMode: 'Master Mode',
  about: 'About',
  flowsFast: 'Workflows',
  flowsStatic: 'Workflows',
  workshop: 'Workshop',
};

export const dates = {
  locale: 'vi-VN',
};

export const sessions = {
  navLink: 'Sessions',
  title: 'Quản lý Sessions',
  subtitle: 'Lưu lại flow và execution bạn đang làm để quay lại đúng chỗ đó sau.',
  create: 'Tạo Session',
  createFirst: 'Tạo session đầu tiên',
  emptyTitle: 'Chưa có session nào',
  emptyText: 'Session ghi nhớ flow, execution và chế độ bạn đang làm việc. Tải session để quay lại ngay.',
  loadFailedList: 'Không thể tải danh sách sessions',
  dialogTitle: 'Tạo Session Mới',
  dialogDescription: 'Session lưu flow và execution bạn đang làm việc gần nhất, hoặc flow bạn chọn.',
  name: 'Tên session',
  namePlaceholder: 'VD: Viết bài blog tuần này',
  description: 'Mô tả (không bắt buộc)',
  descriptionPlaceholder: 'Ghi chú ngắn về session này...',
  flow: 'Flow',
  currentWork: 'Flow đang làm gần nhất',
  mode: 'Chế độ khi mở lại',
  modes: { edit: 'Edit', run: 'Run', chat: 'Chat' },
  modeAuto: 'Tự động',
  cancel: 'Hủy',
  submit: 'Tạo Session',
  submitting: 'Đang tạo...',
  nameRequired: 'Tên session không được để trống',
  updated: (when: string) => `Cập nhật ${when}`,
  unknownTime: 'không xác định',
  flowOf: (name: string) => `Flow: ${name}`,
  noFlow: 'Chưa gắn flow nào: mở danh sách Flows',
  modeOf: (mode: string) => `Chế độ: ${mode}`,
  load: 'Tải',
  loading: 'Đang tải...',
  delete: 'Xóa session',
  deleteConfirm: 'Bạn có chắc muốn xóa session này?',
  created: 'Session đã được tạo thành công',
  createFailed: 'Không thể tạo session',
  deleted: 'Session đã được xóa',
  deleteFailed: 'Không thể xóa session',
  loaded: 'Session đã được tải',
  loadFailed: 'Không thể tải session',
};

export const lightFlows = {
  heading: 'Workflows',
  fastSubtitle: 'Danh sách nhanh: chỉ tên, mô tả và lối vào từng flow.',
  fullList: 'Danh sách đầy đủ',
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

export const workshop = {
  title: 'Workshop',
  subtitle: 'Chọn một flow để mở workspace của nó ở chế độ Edit, Run hoặc Chat.',
  empty: 'Chưa có flow nào.',
  createFirst: 'Tạo flow ở danh sách Workflows',
  loadFailed: 'Không thể tải danh sách flows',
  stepCount: (n: number) => `${n} Steps`,
  modes: { edit: 'Edit', run: 'Run', chat: 'Chat' },
};

export const guide = {
  back: 'Quay lại',
  title: 'Hướng dẫn sử dụng',
  subtitle: 'Mọi thứ bạn cần để xây dựng và chạy workflow AI nhiều bước.',
  stepTypesTitle: '4 loại step',
  stepTypes: [
    {
      title: 'Single Output',
      text: 'AI trả về một kết quả. Dùng cho phân tích, tóm tắt, viết một bản nháp.',
      example: 'Ví dụ: "Phân tích thị trường cho [[step-1]]"',
    },
    {
      title: 'Multiple Output',
      text: 'AI trả về nhiều phương án song song (Branch 1, Branch 2...). Bạn duyệt những phương án muốn đi tiếp.',
      example: 'Ví dụ: "Đưa ra 3 tiêu đề khác nhau"',
    },
    {
      title: 'Multiple Choice',
      text: 'AI chọn đúng một trong các lựa chọn bạn đặt sẵn; kết quả có nhãn "path: lựa chọn" và được chọn tự động.',
      example: 'Ví dụ: lựa chọn "B2B", "B2C", "Cả hai"',
    },
    {
      title: 'Loop',
      text: 'Step chạy lặp nhiều lần; lần thứ n thấy kết quả của các lần trước nên có thể cải thiện dần.',
      example: 'Ví dụ: "Viết lại đoạn văn cho hay hơn" lặp 3 lần',
    },
  ],
  createTitle: 'Tạo flow trong 4 bước',
  createSteps: [
    {
      title: 'Tạo flow',
      text: 'Ở trang Workflows bấm "Tạo Flow thủ công", đặt tên và mô tả; hoặc dùng AI Creator.',
    },
    {
      title: 'Thêm steps',
      text: 'Trong chế độ Edit bấm "Add Step", viết system prompt và chọn output mode.',
    },
    {
      title: 'Nối các steps',
      text: 'Dùng [[step-N]] trong prompt hoặc Input Sources để đưa kết quả step trước vào step sau.',
    },
    {
      title: 'Chạy và duyệt',
      text: 'Sang chế độ Run, bấm Execute từng step hoặc Execute All, duyệt từng kết quả.',
    },
  ],
  modesTitle: '3 chế độ của workshop',
  modes: [
    { title: 'Edit', text: 'Xây cấu trúc flow: thêm, sửa, xóa steps, chạy thử một step với Test Execution.' },
    { title: 'Run', text: 'Chạy từng step, xem các version kết quả, sửa và approve trước khi đi tiếp.' },
    { title: 'Chat', text: 'Trò chuyện với flow: mỗi tin nhắn chạy bước tiếp theo với nội dung bạn gửi.' },
  ],
  tipsTitle: 'Mẹo nhanh',
  tips: [
    'Loop thường chỉ cần 3-5 lần lặp: nhiều hơn hiếm khi tốt hơn mà tốn thêm lượt chạy.',
    'Đặt tên step rõ ràng: [[Tên step]] cũng tham chiếu được kết quả của step đó.',
    'Bật "Yêu cầu user input" cho step cần thông tin từ bạn, QuickRun sẽ dừng lại chờ.',
    'Xóa một kết quả không tốt: nội dung của nó thành rejected idea để AI tránh lặp lại.',
    'Lưu session để quay lại đúng flow và execution đang làm.',
  ],
  start: 'Bắt đầu tạo Workflow',
  about: 'Tìm hiểu thêm về sản phẩm',
};

export const about = {
  heroTitle: 'AI Workflow nhiều bước, con người giữ quyền quyết định',
  heroText:
    'Prompt Flow Workbench chia một việc lớn thành chuỗi prompt nhỏ. AI làm từng bước, bạn xem, sửa và duyệt trước khi đi tiếp: kết quả đáng tin hơn một câu trả lời chat dài.',
  howTitle: 'Cách hoạt động',
  howSteps: [
    {
      title: 'Thiết kế workflow',
      text: 'Chia công việc thành các step, mỗi step một system prompt và một output mode.',
    },
    {
      title: 'Cấu hình AI',
      text: 'Dùng Gemini API key của riêng bạn hoặc key mặc định; nối steps bằng [[step-N]].',
    },
    {
      title: 'Chạy và học hỏi',
      text: 'Chạy từng bước, duyệt kết quả, ghi chú và loại bỏ ý không tốt để AI học theo.',
    },
    {
      title: 'Mở rộng và tối ưu',
      text: 'Dùng lại flow như chatbot riêng, nhận gợi ý cải thiện và chia sẻ bằng JSON.',
    },
  ],
  featuresTitle: 'Tính năng',
  features: [
    { title: 'Chain of Thought', text: 'Mỗi step dùng kết quả của step trước, AI suy luận theo từng chặng.' },
    { title: 'Human-in-the-loop', text: 'Approve, sửa hoặc xóa từng kết quả trước khi workflow chạy tiếp.' },
    { title: 'Prompt Library', text: 'Lưu flow như những chatbot tuỳ chỉnh và chạy lại bất cứ lúc nào.' },
    { title: '4 output modes', text: 'Single, Multiple, Multiple Choice và Loop cho mọi kiểu suy luận.' },
    { title: 'QuickRun', text: 'Execute All chạy tự động các step tiếp theo, dừng lại khi cần input.' },
    { title: 'Chat Mode', text: 'Trò chuyện với workflow: mỗi tin nhắn là input của bước tiếp theo.' },
    { title: 'AI Flow Creator', text: 'Mô tả công việc bằng lời, AI đề xuất workflow hoàn chỉnh.' },
    { title: 'AI Request Logs', text: 'Xem prompt cuối cùng, input và câu trả lời của từng lần gọi AI.' },
    { title: 'Live updates', text: 'Kết quả hiện từng chữ khi AI đang viết, trên mọi tab đang mở.' },
  ],
  casesTitle: 'Câu chuyện sử dụng',
  problem: 'Vấn đề',
  solution: 'Giải pháp',
  results: 'Kết quả',
  cases: [
    {
      title: 'Content Marketing',
      problem: 'Một đội nhỏ cần nội dung cho nhiều kênh mỗi tuần, chat AI cho ra bài chung chung.',
      solution:
        'Flow 3 bước: chân dung khách hàng → chiến lược nội dung → nội dung đa kênh (Multiple Output).',
      results: 'Mỗi kênh có nhiều phương án để chọn; thời gian soạn nội dung giảm khoảng một nửa.',
    },
    {
      title: 'Customer Support',
      problem: 'Câu trả lời cho khách hàng không đồng nhất giữa các nhân viên.',
      solution:
        'Flow phân loại yêu cầu (Multiple Choice) rồi soạn câu trả lời theo đúng hướng dẫn từng loại.',
      results: 'Giọng văn thống nhất, nhân viên chỉ duyệt và sửa nhỏ trước khi gửi.',
    },
    {
      title: 'Financial Analysis',
      problem: 'Báo cáo phân tích mất nhiều giờ tổng hợp và dễ sót rủi ro.',
      solution: 'Flow tách số liệu → phân tích xu hướng → đánh giá rủi ro, có Loop để rà soát lại kết luận.',
      results: 'Mỗi bước có thể kiểm tra lại; báo cáo nhanh hơn và minh bạch về cách AI suy luận.',
    },
  ],
  principlesTitle: 'Nguyên tắc',
  principles: [
    {
      title: 'Con người quyết định',
      text: 'AI đề xuất, bạn duyệt. Không kết quả nào đi tiếp khi bạn chưa xem.',
    },
    { title: 'Minh bạch', text: 'Mọi prompt, input và câu trả lời đều được ghi lại và xem lại được.' },
    { title: 'Từng bước nhỏ', text: 'Việc lớn chia thành các bước rõ ràng thì dễ kiểm soát và dễ sửa.' },
    {
      title: 'Dùng lại được',
      text: 'Một flow tốt là tài sản: chạy lại, chia sẻ và cải thiện theo thời gian.',
    },
  ],
  ctaTitle: 'Sẵn sàng xây dựng workflow đầu tiên?',
  ctaText: 'Bắt đầu từ một template, một mô tả cho AI hoặc một flow trống.',
  ctaButton: 'Bắt đầu ngay',
  footerHome: 'Trang chủ',
  footerAbout: 'Giới thiệu',
  footerInert: ['Tài liệu', 'API', 'Trợ giúp', 'Điều khoản', 'Bảo mật'],
  copyright: '© 2026 Prompt Flow Workbench',
};
