import type { WorkflowJsonInput } from './workflow-json';

/** A workflow the product ships with (three, each with three steps), offered by the AI creator. */
export interface BuiltinTemplate {
  id: string;
  workflow: WorkflowJsonInput & { name: string };
}

export const BUILTIN_TEMPLATES: readonly BuiltinTemplate[] = [
  {
    id: 'business-strategy',
    workflow: {
      name: 'Phân tích chiến lược kinh doanh',
      description:
        'Business strategy analysis: phân tích thị trường, đánh giá đối thủ cạnh tranh và xây dựng chiến lược định vị cho doanh nghiệp.',
      steps: [
        {
          name: 'Phân tích thị trường',
          order: 1,
          outputMode: 'single',
          requiresUserInput: true,
          inputSources: [],
          systemPrompt:
            'Bạn là chuyên gia phân tích thị trường (market analyst). Dựa trên thông tin doanh nghiệp người dùng cung cấp ' +
            '(ngành, sản phẩm/dịch vụ, thị trường mục tiêu), hãy phân tích:\n' +
            '1. Quy mô thị trường và tốc độ tăng trưởng (ước tính, nêu rõ giả định)\n' +
            '2. Các xu hướng chính đang định hình thị trường\n' +
            '3. Các phân khúc khách hàng và nhu cầu nổi bật của từng phân khúc\n' +
            '4. Cơ hội và rủi ro chính\n' +
            'Trình bày có cấu trúc với tiêu đề rõ ràng và kết thúc bằng 3 nhận định quan trọng nhất.',
        },
        {
          name: 'Phân tích đối thủ cạnh tranh',
          order: 2,
          outputMode: 'single',
          requiresUserInput: false,
          inputSources: ['step-1'],
          systemPrompt:
            'Dựa trên phân tích thị trường sau:\n[[step-1]]\n\n' +
            'Hãy xác định 3 đến 5 đối thủ cạnh tranh chính (cả trực tiếp lẫn gián tiếp). Với mỗi đối thủ, phân tích: ' +
            'sản phẩm/dịch vụ chủ lực, mức giá, kênh phân phối, điểm mạnh, điểm yếu và cách họ định vị thương hiệu. ' +
            'Kết thúc bằng một bảng so sánh (competitor matrix) và những khoảng trống thị trường chưa đối thủ nào ' +
            'đáp ứng tốt.',
        },
        {
          name: 'Chiến lược định vị',
          order: 3,
          outputMode: 'single',
          requiresUserInput: false,
          inputSources: ['step-1', 'step-2'],
          systemPrompt:
            'Phân tích thị trường:\n[[step-1]]\n\nPhân tích đối thủ:\n[[step-2]]\n\n' +
            'Hãy xây dựng chiến lược định vị cho doanh nghiệp, gồm: tuyên bố định vị (positioning statement), ' +
            'giá trị khác biệt cốt lõi (unique value proposition), phân khúc khách hàng ưu tiên, chiến lược giá, ' +
            'thông điệp truyền thông chính và 5 hành động ưu tiên trong 90 ngày tới, mỗi hành động kèm một chỉ số ' +
            'đo lường (KPI).',
        },
      ],
    },
  },
  {
    id: 'marketing-content',
    workflow: {
      name: 'Sáng tạo nội dung marketing',
      description:
        'Marketing content creation: hiểu khách hàng mục tiêu, lên chiến lược nội dung và viết nội dung cho nhiều kênh.',
      steps: [
        {
          name: 'Phân tích đối tượng mục tiêu',
          order: 1,
          outputMode: 'single',
          requiresUserInput: true,
          inputSources: [],
          systemPrompt:
            'Bạn là chuyên gia marketing. Dựa trên sản phẩm/dịch vụ và mục tiêu chiến dịch người dùng cung cấp, ' +
            'hãy xây dựng 2 đến 3 chân dung khách hàng (buyer persona). Với mỗi persona, nêu: nhân khẩu học, ' +
            'nhu cầu, nỗi đau (pain points), động lực mua hàng, những rào cản khiến họ chưa mua, các kênh truyền ' +
            'thông họ dùng nhiều nhất và giọng điệu phù hợp để tiếp cận họ.',
        },
        {
          name: 'Chiến lược nội dung',
          order: 2,
          outputMode: 'single',
          requiresUserInput: false,
          inputSources: ['step-1'],
          systemPrompt:
            'Dựa trên chân dung khách hàng sau:\n[[step-1]]\n\n' +
            'Hãy đề xuất chiến lược nội dung (content strategy): thông điệp chủ đạo, 3 đến 4 trụ cột nội dung ' +
            '(content pillars), giọng điệu thương hiệu (brand voice), các kênh ưu tiên (ví dụ Facebook, TikTok, ' +
            'email, blog) kèm lý do chọn, và lịch đăng bài gợi ý cho 2 tuần đầu.',
        },
        {
          name: 'Nội dung đa kênh',
          order: 3,
          outputMode: 'multiple',
          requiresUserInput: false,
          inputSources: ['step-1', 'step-2'],
          systemPrompt:
            'Chân dung khách hàng:\n[[step-1]]\n\nChiến lược nội dung:\n[[step-2]]\n\n' +
            'Hãy viết nội dung hoàn chỉnh, sẵn sàng đăng, cho từng kênh chính trong chiến lược. Mỗi phương án là ' +
            'một kênh (ví dụ: bài đăng Facebook, kịch bản video TikTok 30 giây, email marketing, bài blog ngắn) ' +
            'với tiêu đề hoặc câu mở đầu thu hút (hook), nội dung chính, lời kêu gọi hành động (CTA) và hashtag ' +
            'khi phù hợp.',
        },
      ],
    },
  },
  {
    id: 'product-research',
    workflow: {
      name: 'Nghiên cứu và phát triển sản phẩm',
      description:
        'Product research and development: nghiên cứu nhu cầu người dùng, thiết kế giải pháp và lập kế hoạch MVP.',
      steps: [
        {
          name: 'Nghiên cứu nhu cầu người dùng',
          order: 1,
          outputMode: 'single',
          requiresUserInput: true,
          inputSources: [],
          systemPrompt:
            'Bạn là chuyên gia nghiên cứu người dùng (UX researcher). Với ý tưởng sản phẩm người dùng mô tả, hãy: ' +
            'xác định nhóm người dùng mục tiêu; liệt kê các vấn đề (pain points) và nhu cầu chính của họ theo mức ' +
            'độ ưu tiên; nêu các giải pháp thay thế họ đang dùng và vì sao chưa đủ tốt; đề xuất 5 đến 7 câu hỏi ' +
            'phỏng vấn người dùng để kiểm chứng các giả định quan trọng nhất.',
        },
        {
          name: 'Thiết kế giải pháp',
          order: 2,
          outputMode: 'single',
          requiresUserInput: false,
          inputSources: ['step-1'],
          systemPrompt:
            'Dựa trên nghiên cứu nhu cầu người dùng sau:\n[[step-1]]\n\n' +
            'Hãy thiết kế giải pháp sản phẩm: giá trị cốt lõi, các tính năng chính gắn với từng nhu cầu (xếp ưu ' +
            'tiên theo MoSCoW: Must, Should, Could, Won\u2019t), hành trình người dùng (user journey) từ lúc biết đến ' +
            'sản phẩm tới khi dùng thường xuyên, và những rủi ro về kỹ thuật hoặc trải nghiệm cần lưu ý.',
        },
        {
          name: 'Lập kế hoạch MVP',
          order: 3,
          outputMode: 'single',
          requiresUserInput: false,
          inputSources: ['step-1', 'step-2'],
          systemPrompt:
            'Nhu cầu người dùng:\n[[step-1]]\n\nGiải pháp đề xuất:\n[[step-2]]\n\n' +
            'Hãy lập kế hoạch MVP (Minimum Viable Product): phạm vi tính năng tối thiểu để kiểm chứng giả định ' +
            'quan trọng nhất, những gì cố ý để lại cho sau, lộ trình 6 đến 8 tuần chia theo giai đoạn, nguồn lực ' +
            'cần có, các chỉ số thành công (success metrics) và cách thu thập phản hồi từ những người dùng đầu tiên.',
        },
      ],
    },
  },
];

/** The template of that id, or undefined. */
export const builtinTemplate = (id: string) => BUILTIN_TEMPLATES.find((template) => template.id === id);
