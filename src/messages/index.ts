export {
  catalogueEntries,
  defineMessages,
  LOCALES,
  type Locale,
  type MessageBuilder,
  type MessageSource,
  messageSource,
  type Placeholders,
  placeholderScan,
} from './catalogue.js';
export { coreMessages } from './core.js';
export { defaultLocale, ITALIAN_ZONES } from './locale.js';
export {
  isMessage,
  type Message,
  type MessageArg,
  readMessage,
  readStoredMessage,
  storedMessage,
  TEXT_MESSAGE_ID,
  textMessage,
} from './message.js';
export { english, type MessageRenderer, messageRenderer } from './render.js';
