/**
 * The cookie a browser that runs no script gets from /resources/no-js (issue 23), so its next pages come without
 * scripts; a page rendered so deletes it by an inline script, which runs only once JavaScript is back on.
 */
export const NO_JS_COOKIE = "js";
export const NO_JS_VALUE = "off";
