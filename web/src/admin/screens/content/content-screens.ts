// The content screens (decision 018), loaded on their own when first opened:
// most staff never open them, and the editor's forms would otherwise be in
// every back-office visit's bundle.
export { ContentListScreen } from './content-list-screen';
export { ContentEditorScreen } from './editor-screen';
export { NewContentScreen } from './new-content-screen';
