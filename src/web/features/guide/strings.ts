/**
 * The visible strings of the guide screen. Their texts are a contract, checked with the shared ones
 * in lib/strings.test.ts; templated ones are functions.
 */

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
