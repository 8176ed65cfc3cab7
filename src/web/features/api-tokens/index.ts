/** What other features use of the API tokens feature: the tabs between the API keys and tokens pages. */
export { KeysAndTokensTabs } from './components/api-tokens-page';
