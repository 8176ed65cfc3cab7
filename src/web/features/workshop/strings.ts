/**
 * The visible strings of the workshop screen. Their texts are a contract, checked with the shared
 * ones in lib/strings.test.ts; templated ones are functions.
 */

export const workshop = {
  title: 'Workshop',
  subtitle: 'Chọn một flow để mở workspace của nó ở chế độ Edit, Run hoặc Chat.',
  empty: 'Chưa có flow nào.',
  createFirst: 'Tạo flow ở danh sách Workflows',
  loadFailed: 'Không thể tải danh sách flows',
  stepCount: (n: number) => `${n} Steps`,
  modes: { edit: 'Edit', run: 'Run', chat: 'Chat' },
};
