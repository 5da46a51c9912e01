// The app's own document renderer (buffered, with the CSP nonce), so the floor renders the way the app does.
export { default, handleError, streamTimeout } from "../../../../app/entry.server";
