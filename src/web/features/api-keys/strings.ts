import { API_KEY_TYPE_LABELS, type ApiKeyType } from '../../../domain/api-key';

/**
 * The visible strings of the API keys screen. Their texts are a contract, checked with the shared
 * ones in lib/strings.test.ts; templated ones are functions.
 */

export const apiKeys = {
  title: 'Quản lý API Keys',
  subtitle:
    'Dùng API key của riêng bạn (Gemini, OpenAI, Anthropic hoặc endpoint OpenAI-compatible) để chạy các model của nhà cung cấp đó không giới hạn.',
  addKey: 'Thêm API Key',
  usageTitle: 'Mức sử dụng',
  unlimitedText: 'Bạn đang dùng API key của riêng mình: không giới hạn số steps.',
  freeText: (allowance: number) => `Không có API key riêng, bạn có ${allowance} steps miễn phí.`,
  usedSteps: (n: number) => `Đã dùng: ${n} steps`,
  remainingSteps: (n: number) => `Còn lại: ${n} steps`,
  remainingUnlimited: 'Còn lại: Không giới hạn',
  noActiveKeyTitle: 'Chưa có API key nào đang hoạt động',
  noActiveKeyText:
    'Bạn đang dùng API key mặc định với số steps miễn phí có hạn. Thêm API key của riêng bạn để chạy các model của nhà cung cấp đó không giới hạn.',
  loadFailed: 'Không thể tải API keys',
  listTitle: 'API Keys của bạn',
  empty: 'Chưa có API key nào.',
  keyType: (type: ApiKeyType) => API_KEY_TYPE_LABELS[type],
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
  provider: 'Nhà cung cấp',
  apiKey: 'API Key',
  apiKeyPlaceholder: 'Dán API key (bắt đầu bằng "AI...")',
  otherApiKeyPlaceholder: 'Dán API key',
  baseUrl: 'Base URL',
  baseUrlPlaceholder: 'VD: https://llm.example.com/v1',
  baseUrlHint: 'Địa chỉ endpoint kèm version path; chỉ các host server cho phép (MODEL_ENDPOINT_HOSTS).',
  providerHint:
    'Key chỉ dùng cho các model của nhà cung cấp đó; endpoint OpenAI-compatible thay cho endpoint OpenAI của server.',
  cancel: 'Hủy',
  submit: 'Thêm Key',
  submitting: 'Đang thêm...',
  fillInEverything: 'Vui lòng điền đầy đủ thông tin',
  addedUnchecked: 'Đã lưu API key (chưa kiểm tra)',
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
