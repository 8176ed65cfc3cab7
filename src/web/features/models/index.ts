/** What other features use of the models feature: the model picker and the models' query. */
export { modelsQueryOptions } from './api/get-models';
export { ModelPicker } from './components/model-picker';
