/**
 * The visible strings of the landing page. Their texts are a contract, checked with the shared ones
 * in lib/strings.test.ts; templated ones are functions.
 */

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
  comparisonHeaders: { aspect: 'Khía cạnh', chat: 'Chat thông thường', flow: 'Workflow nhiều bước' },
  comparisonRows: [
    { aspect: 'Cấu trúc', chat: 'Một cuộc hội thoại dài', flow: 'Các bước rõ ràng, có thứ tự' },
    { aspect: 'Kiểm soát', chat: 'Chấp nhận câu trả lời như nó đến', flow: 'Duyệt và sửa từng kết quả' },
    { aspect: 'Tái sử dụng', chat: 'Gõ lại prompt mỗi lần', flow: 'Lưu flow, chạy lại bất cứ lúc nào' },
    { aspect: 'Theo dõi', chat: 'Khó biết AI đã dùng gì', flow: 'Xem prompt, input và kết quả từng bước' },
  ],
  ctaTitle: 'Sẵn sàng thử?',
  ctaText: 'Tạo workflow đầu tiên của bạn trong vài phút.',
};
