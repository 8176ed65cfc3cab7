/**
 * The visible strings of the AI Flow Creator screen. Their texts are a contract, checked with the
 * shared ones in lib/strings.test.ts; templated ones are functions.
 */

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
