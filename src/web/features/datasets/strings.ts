import { DATASET_CSV_MAX_BYTES, MAX_DATASET_ITEMS_PER_ADD } from '../../../domain/limits';

const CSV_MB = DATASET_CSV_MAX_BYTES / 1024 / 1024;

/** The datasets screens' words. */
export const datasets = {
  title: 'Datasets',
  subtitle: (flowName: string) =>
    `Các bộ test case của flow "${flowName}": input cho từng step, kết quả mong đợi (expected) và tag.`,
  backToFlow: 'Về flow',
  backToDatasets: 'Về danh sách datasets',
  loadFailed: 'Không tải được datasets.',
  empty: 'Flow này chưa có dataset nào.',
  createTitle: 'Tạo dataset',
  name: 'Tên dataset',
  namePlaceholder: 'Ví dụ: Câu hỏi khách hàng',
  nameRequired: 'Hãy nhập tên dataset',
  nameTooLong: (max: number) => `Tên dataset tối đa ${max} ký tự`,
  create: 'Tạo dataset',
  creating: 'Đang tạo…',
  created: (name: string) => `Đã tạo dataset "${name}"`,
  createFailed: 'Không tạo được dataset',
  items: (count: number, archived: number) =>
    archived > 0 ? `${count} item (${archived} đã archive)` : `${count} item`,
  version: (version: number) => `Phiên bản ${version}`,
  open: 'Mở',
} as const;

export const datasetPage = {
  loadFailed: 'Không tải được dataset.',
  notFound: 'Không tìm thấy dataset.',
  versionLabel: 'Phiên bản',
  latest: (version: number) => `Phiên bản ${version} (mới nhất)`,
  olderVersion: 'Bạn đang xem một phiên bản cũ: chỉ đọc.',
  showArchived: 'Hiện item đã archive',
  itemsTitle: 'Items',
  noItems: 'Dataset chưa có item nào.',
  inputs: 'Input',
  expected: 'Kết quả mong đợi (expected)',
  tags: 'Tag',
  source: 'Nguồn',
  sources: { manual: 'Nhập tay', csv: 'CSV', execution: 'Từ run' } as Record<string, string>,
  archived: 'Đã archive',
  actions: 'Thao tác',
  archive: 'Archive',
  restore: 'Khôi phục',
  archiveFailed: 'Không archive được item',
  restoreFailed: 'Không khôi phục được item',
  unknownStep: (key: string) => `${key} (không còn là step của flow)`,
  addTitle: 'Thêm item',
  addHint: 'Điền input và/hoặc expected cho các step; ô để trống được bỏ qua.',
  inputFor: (step: string) => `Input: ${step}`,
  expectedFor: (step: string) => `Expected: ${step}`,
  tagsField: 'Tags (ngăn cách bằng ;)',
  add: 'Thêm item',
  adding: 'Đang thêm…',
  added: (count: number) => `Đã thêm ${count} item`,
  addFailed: 'Không thêm được item',
  nothingFilled: 'Hãy điền ít nhất một input hoặc expected',
  csvTitle: 'Tải lên CSV',
  csvHint: `Dòng đầu là tiêu đề: mỗi cột là một step (tên hoặc id) cho input, cột "expected:<step>" cho kết quả mong đợi, cột "tags" (ngăn cách bằng ;). Tối đa ${CSV_MB} MB, ${MAX_DATASET_ITEMS_PER_ADD} dòng.`,
  csvChoose: 'Chọn file CSV',
  csvUploading: 'Đang tải lên…',
  csvTooLarge: `File CSV tối đa ${CSV_MB} MB`,
  csvFailed: 'Không thêm được các dòng của file CSV',
  unknownColumns: (names: string[]) => `Không phải step của flow (vẫn được giữ): ${names.join(', ')}`,
} as const;

export const addRun = {
  button: 'Thêm run vào dataset',
  title: 'Thêm run này vào dataset',
  description:
    'User input của từng step và các kết quả đã được duyệt (approved) sẽ thành một item của dataset.',
  dataset: 'Dataset',
  noDatasets: 'Flow này chưa có dataset nào: hãy tạo một dataset trước.',
  manage: 'Quản lý datasets',
  submit: 'Thêm vào dataset',
  added: (name: string) => `Đã thêm run vào dataset "${name}"`,
  failed: 'Không thêm được run vào dataset',
  close: 'Đóng',
} as const;
