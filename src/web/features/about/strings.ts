/**
 * The visible strings of the about screen. Their texts are a contract, checked with the shared ones
 * in lib/strings.test.ts; templated ones are functions.
 */

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
  footerNav: 'Liên kết cuối trang',
  footerAbout: 'Giới thiệu',
  footerInert: ['Tài liệu', 'API', 'Trợ giúp', 'Điều khoản', 'Bảo mật'],
  copyright: '© 2026 Prompt Flow Workbench',
};
