/**
 * The visible strings of the model picker, shared by a flow step (edit mode) and a master mode row. Their
 * texts are a contract; templated ones are functions.
 */
export const modelPicker = {
  title: 'Model',
  serverDefault: (model: string | undefined) => `Mặc định của server${model ? ` (${model})` : ''}`,
  option: (provider: string, name: string, ownKey: boolean) =>
    `${provider} · ${name}${ownKey ? ' (key của bạn)' : ''}`,
  unavailableOption: (id: string) => `${id} (không có trên server này)`,
  unavailable: (id: string, fallback: string | undefined) =>
    `Server này không có model ${id}: step chạy bằng model mặc định${fallback ? ` (${fallback})` : ''}.`,
  loadFailed: 'Không thể tải danh sách model',
};
