/** The experiments screens' words. */
export const experiments = {
  title: 'Experiments',
  subtitle: (flowName: string) =>
    `Chạy một phiên bản của flow "${flowName}" trên một dataset, chấm điểm từng run và so sánh các lần chạy.`,
  backToFlow: 'Về flow',
  loadFailed: 'Không tải được danh sách experiment.',
  empty: 'Flow này chưa có experiment nào.',
  listTitle: 'Các experiment',
  latestPerVersion: 'Experiment mới nhất của từng phiên bản',
  allTitle: 'Tất cả experiment',
  flowVersion: (version: number) => `Phiên bản ${version}`,
  dataset: (name: string, version: number) => `${name} · phiên bản ${version}`,
  unknownDataset: 'Dataset đã xoá',
  runs: (finished: number, total: number) => `${finished}/${total} run xong`,
  startedAt: (when: string) => `Bắt đầu ${when}`,
  baseline: 'Baseline',
  open: 'Mở',
  select: (label: string) => `Chọn để so sánh: ${label}`,
  compare: 'So sánh',
  compareHint:
    'Chọn từ hai experiment trở lên để so sánh: baseline của flow (hoặc experiment cũ nhất) đứng đầu, các experiment khác so với nó.',
  selected: (count: number) => `Đã chọn ${count}`,
  goToDatasets: 'Datasets',
} as const;

/** An experiment's status, and a run's. */
export const statuses: Record<string, string> = {
  running: 'Đang chạy',
  stopping: 'Đang dừng',
  stopped: 'Đã dừng',
  completed: 'Hoàn tất',
};

export const runStatuses: Record<string, string> = {
  planned: 'Chờ chạy',
  running: 'Đang chạy',
  waiting: 'Chờ người duyệt',
  ready: 'Sẵn sàng chạy tiếp',
  interrupted: 'Bị gián đoạn',
  finished: 'Đã xong',
};

export const outcomes: Record<string, string> = {
  completed: 'Hoàn tất',
  failed: 'Lỗi',
  stopped: 'Đã dừng',
};

export const reviewModes: Record<string, string> = {
  human: 'Người duyệt (human)',
  auto: 'Tự động (auto)',
  judge: 'Judge',
};

export const scorerTypes: Record<string, string> = {
  equals: 'equals: trùng với expected',
  contains: 'contains: có chứa đoạn text',
  regex: 'regex: khớp biểu thức',
  jsonSchema: 'jsonSchema: JSON đúng schema',
  length: 'length: độ dài trong khoảng',
  similarity: 'similarity: gần với expected',
  judge: 'judge: model chấm điểm',
};

export const form = {
  title: 'Chạy experiment',
  hint: 'Mỗi item của dataset (nhân số lần lặp) chạy thành một execution của phiên bản flow đã chọn.',
  flowVersion: 'Phiên bản flow',
  versionOption: (version: number, summary: string) => `Phiên bản ${version}: ${summary}`,
  dataset: 'Dataset',
  chooseDataset: 'Chọn dataset',
  noDatasets: 'Flow này chưa có dataset nào: hãy tạo một dataset trước.',
  datasetVersion: (version: number, items: number) => `phiên bản ${version}, ${items} item`,
  steps: 'Các step',
  stepsLoading: 'Đang tải các step của phiên bản…',
  step: 'Step',
  reviewMode: 'Cách duyệt',
  model: 'Model',
  modelDefault: 'Model của step',
  modelHint: 'Để trống: model của step trong phiên bản này.',
  modelOther: 'Model khác (provider:name)',
  allAuto: 'Tất cả tự động (auto)',
  scorers: 'Scorers',
  scorersHint:
    'Chấm điểm output của một step (mặc định step cuối). equals và similarity so với expected của item.',
  addScorer: 'Thêm scorer',
  scorerType: 'Loại scorer',
  removeScorer: 'Bỏ scorer',
  scorerName: 'Tên (tuỳ chọn)',
  scorerStep: 'Step được chấm',
  lastStep: 'Step cuối (mặc định)',
  caseSensitive: 'Phân biệt hoa thường',
  text: 'Đoạn text cần có',
  pattern: 'Biểu thức (regex)',
  flags: 'Flags (i, m, s)',
  schema: 'JSON schema',
  schemaInvalid: 'JSON schema phải là một object JSON hợp lệ',
  min: 'Tối thiểu (ký tự)',
  max: 'Tối đa (ký tự)',
  threshold: 'Ngưỡng (0 đến 1)',
  judgeModel: 'Model của judge (provider:name)',
  judgePrompt: 'Prompt của judge',
  noScorers: 'Chưa có scorer nào: chỉ có điểm từ việc duyệt.',
  repetitions: 'Số lần lặp mỗi item',
  concurrency: 'Số run chạy cùng lúc',
  baseline: 'Baseline để so sánh',
  noBaseline: 'Không có baseline',
  baselineOption: (version: number, dataset: string, when: string, isBaseline: boolean) =>
    `Phiên bản ${version} · ${dataset} · ${when}${isBaseline ? ' (Baseline)' : ''}`,
  baselineHint:
    'Những step trước step đầu tiên thay đổi được lấy lại từ run của baseline, không gọi model lại.',
  submit: 'Chạy experiment',
  submitting: 'Đang bắt đầu…',
  started: 'Đã bắt đầu experiment',
  failed: 'Không bắt đầu được experiment',
  required: 'Bắt buộc',
  wholeNumber: (min: number, max: number) => `Số nguyên từ ${min} đến ${max}`,
  serverProblem: 'Server từ chối experiment:',
  bothTitle: (older: number, newer: number) => `Chạy cả hai phiên bản ${older} và ${newer}`,
  bothHint: (older: number, newer: number) =>
    `Chạy phiên bản ${older} trước; khi xong, chạy phiên bản ${newer} với nó làm baseline để so sánh.`,
  bothHasBaseline: (older: number) =>
    `Đã có experiment của phiên bản ${older} trên dataset này: được chọn làm baseline.`,
  runOlderFirst: (older: number) => `Chạy phiên bản ${older} trước`,
  runNewer: (newer: number) => `Chạy phiên bản ${newer}`,
} as const;

export const experimentPage = {
  title: (version: number) => `Experiment: phiên bản ${version}`,
  backToList: 'Về danh sách experiment',
  loadFailed: 'Không tải được experiment.',
  settings: 'Thiết lập',
  dataset: 'Dataset',
  datasetVersion: (version: number) => `phiên bản ${version}`,
  baseline: 'So với',
  none: 'Không có',
  reuseBefore: 'Chạy lại từ step',
  repetitions: 'Số lần lặp',
  concurrency: 'Chạy cùng lúc',
  review: 'Cách duyệt',
  models: 'Model',
  scorers: 'Scorers',
  progress: 'Tiến độ',
  counts: {
    total: 'Tổng số run',
    planned: 'Chờ chạy',
    running: 'Đang chạy',
    waiting: 'Chờ người duyệt',
    interrupted: 'Bị gián đoạn',
    finished: 'Đã xong',
    completed: 'Hoàn tất',
    failed: 'Lỗi',
    stopped: 'Đã dừng',
  } as Record<string, string>,
  runsTitle: 'Các run',
  item: 'Item',
  repetition: 'Lần',
  status: 'Trạng thái',
  outcome: 'Kết quả',
  execution: 'Execution',
  openExecution: 'Mở execution',
  reviewInExecution: 'Duyệt trong execution',
  baselineOf: (version: number) => `Experiment phiên bản ${version}`,
  reused: 'Dùng lại từ baseline',
  stop: 'Dừng',
  stopping: 'Đang dừng…',
  stopFailed: 'Không dừng được experiment',
  stopQuestion: 'Dừng experiment này? Các run đang chạy sẽ dừng lại.',
  scoreAgain: 'Chấm điểm lại',
  scoredAgain: 'Đã chấm điểm lại',
  noScorers: 'Experiment này không có scorer nào để chấm lại',
  scoreAgainFailed: 'Không chấm điểm lại được',
  promote: 'Đặt làm baseline',
  promoted: 'Experiment này là baseline của flow',
  promoteFailed: 'Không đặt được làm baseline',
  compareWithBaseline: 'So sánh với baseline',
  live: 'Đang cập nhật tự động',
  /** Why the server stopped it on its own (the answer's stopReason). */
  stopReasons: {
    starterCannotRun:
      'Experiment đã tự dừng: người bắt đầu experiment không còn quyền chạy flow này. Các run chưa xong đã kết thúc (đã dừng).',
  },
  thenWaiting: (version: number) =>
    `Khi experiment này xong, bạn có thể chạy phiên bản ${version} với nó làm baseline.`,
  thenReady: (version: number) => `Experiment này đã xong: chạy phiên bản ${version} với nó làm baseline.`,
  thenRun: (version: number) => `Chạy phiên bản ${version}`,
} as const;

export const compare = {
  title: 'So sánh experiments',
  loadFailed: 'Không tải được bảng so sánh.',
  needIds: 'Chọn các experiment để so sánh từ trang Experiments của flow.',
  backToList: 'Về danh sách experiment',
  csv: 'Tải CSV',
  summaryTitle: 'Tổng quan',
  summaryStep: 'Phạm vi',
  allSteps: 'Cả run',
  experiment: (index: number, version: number) =>
    index === 0 ? `Baseline · phiên bản ${version}` : `#${index + 1} · phiên bản ${version}`,
  passRate: (name: string) => `Tỉ lệ đạt: ${name}`,
  mean: (name: string) => `Trung bình: ${name}`,
  rows: 'Số dòng',
  missingCount: 'Thiếu',
  regressedCount: 'Kém đi',
  improvedCount: 'Tốt lên',
  changedCount: 'Thay đổi',
  tokens: 'Tokens (vào / ra)',
  cost: 'Chi phí (USD)',
  p50: 'Thời gian p50',
  p95: 'Thời gian p95',
  editRate: 'Tỉ lệ bị sửa',
  editDistance: 'Số từ sửa trung bình',
  secondsToApprove: 'Giây tới khi duyệt (trung bình)',
  judgeAgreement: 'Judge đồng ý với người duyệt',
  judgeUsage: 'Judge: số lần gọi, tokens (vào / ra)',
  judgeCalls: (calls: number, input: number, output: number) =>
    calls === 0
      ? 'không gọi'
      : `${calls} lần · ${input.toLocaleString('vi-VN')} / ${output.toLocaleString('vi-VN')}`,
  agreement: (rate: number | null, compared: number) =>
    rate === null ? '—' : `${Math.round(rate * 100)}% (${compared})`,
  chartsTitle: 'Phân bố điểm',
  chartsOfLoaded: (rows: number) =>
    `Trên ${rows.toLocaleString('vi-VN')} dòng đã tải; cuộn bảng bên dưới để tải thêm.`,
  chartOf: (name: string) => `Điểm ${name}`,
  noScores: 'Chưa có điểm nào.',
  filters: 'Lọc',
  filterAll: 'Tất cả',
  filterNames: {
    regressed: 'Kém đi (regressed)',
    improved: 'Tốt lên (improved)',
    changed: 'Thay đổi (changed)',
    edited: 'Người duyệt đã sửa',
    missing: 'Thiếu (missing)',
  } as Record<string, string>,
  gridTitle: 'Từng item',
  item: 'Item',
  itemNumber: (n: number) => `Item ${n}`,
  wholeRun: 'Cả run',
  expand: 'Xem các step',
  collapse: 'Ẩn các step',
  noRows: 'Không có dòng nào khớp bộ lọc.',
  noOutput: 'Không có output',
  more: 'Xem thêm',
  less: 'Thu gọn',
  showDiff: 'So với baseline',
  hideDiff: 'Ẩn so sánh',
  diffBaseline: 'Baseline',
  diffThis: 'Experiment này',
  reused: 'dùng lại',
  reusedTitle: 'Kết quả đã được approve của run baseline, lấy lại không gọi model: không tính vào tỉ lệ đạt',
  flags: {
    regressed: 'kém đi',
    improved: 'tốt lên',
    changed: 'thay đổi',
    missing: 'thiếu',
  } as Record<string, string>,
  repetitions: (n: number) => `${n} lần lặp`,
  unknownStep: (id: string) => `Step ${id.slice(0, 8)}`,
} as const;

/** The flow's screen: its latest experiment per version. */
export const latestExperiments = {
  label: 'Experiment mới nhất của mỗi phiên bản',
  version: (version: number) => `Experiment v${version}`,
  title: (version: number, finished: number, total: number) =>
    `Experiment mới nhất của phiên bản ${version}: ${finished}/${total} run đã xong`,
} as const;
