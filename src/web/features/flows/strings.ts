/**
 * The visible strings of the flows list's own dialogs and banners: the first run, creating a flow
 * by hand or with the AI Creator, exporting one. Their texts are a contract, checked with the
 * shared ones in lib/strings.test.ts; templated ones are functions.
 */

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
  description: 'Tạo workflow bằng AI từ một mô tả, từ template có sẵn, hoặc import từ JSON.',
  tabs: { generate: 'Tạo AI', template: 'Template', import: 'Import' },
  describeLabel: 'Mô tả workflow bạn muốn tạo',
  describePlaceholder:
    'Ví dụ: Viết bài blog du lịch về Đà Nẵng: nghiên cứu điểm đến, lập dàn ý, rồi viết bài hoàn chỉnh cho giới trẻ.',
  tip: 'Mẹo: nêu rõ mục tiêu, thông tin bạn có và kết quả mong muốn. AI sẽ chia thành các bước nối tiếp nhau, bước sau dùng kết quả bước trước.',
  generate: 'Tạo workflow với AI',
  generating: 'Đang tạo workflow...',
  previewSteps: (n: number) => `${n} bước`,
  moreSteps: (n: number) => `... và ${n} bước nữa`,
  outputMode: (mode: string) => (mode === 'multiple' ? 'Nhiều kết quả' : 'Một kết quả'),
  requiresInput: 'Cần input',
  inputSource: (order: number) => `Input: Step ${order}`,
  createThis: 'Tạo workflow này',
  creating: 'Đang tạo...',
  templateLabel: 'Template workflow',
  templatePlaceholder: 'Chọn một template...',
  createFromTemplate: 'Tạo từ template',
  importFile: 'File .json',
  importPaste: 'Hoặc dán JSON workflow',
  importPlaceholder: '{\n  "name": "...",\n  "description": "...",\n  "steps": [ ... ]\n}',
  importButton: 'Import workflow',
  descriptionMissing: 'Thiếu mô tả',
  descriptionMissingText: 'Vui lòng nhập mô tả workflow bạn muốn tạo.',
  formatError: 'Lỗi format response',
  formatErrorText: 'Response từ AI không đúng format.',
  dataError: 'Lỗi workflow data',
  dataErrorText: 'Workflow thiếu thông tin cần thiết.',
  failed: 'Lỗi tạo workflow',
  failedText: 'Không thể tạo workflow. Vui lòng thử lại.',
  generated: 'Workflow đã được tạo!',
  generatedText: (n: number) => `AI đã tạo workflow gồm ${n} bước. Xem lại rồi bấm "Tạo workflow này".`,
  created: 'Thành công!',
  createdText: 'Workflow đã được tạo thành công.',
  templateMissing: 'Chưa chọn template',
  templateMissingText: 'Vui lòng chọn một template workflow.',
  importEmpty: 'Thiếu JSON',
  importEmptyText: 'Vui lòng nhập JSON workflow.',
  importInvalid: 'JSON không hợp lệ',
  importInvalidText: 'Vui lòng kiểm tra lại format JSON.',
  importError: 'Lỗi import',
  importErrorText: 'File không đúng format workflow JSON.',
  imported: 'Import thành công',
  /** The name is the imported flow's, as saved: 'Untitled' when the file named none. */
  importedText: (name: string) => `Workflow "${name}" đã được import.`,
};

/** Which flows the list shows: the user's own ("Mine") or a workspace's; and moving a flow between them. */
export const flowPlaces = {
  label: 'Flows của',
  mine: 'Mine',
  moveTo: 'Move to…',
  moved: (name: string, to: string) => `Flow "${name}" đã chuyển đến ${to}`,
  readOnly: (role: string) =>
    `Vai trò của bạn ở workspace này là ${role}: bạn xem được các flow nhưng không sửa được.`,
};

export const moveFlow = {
  failed: 'Không thể chuyển flow',
};
