/**
 * The window payload as it crosses the host → webview channel. The layout belongs to the format
 * core (`src/core/query/windowColumns.ts`, which builds it); this module is what the webview and
 * the host import.
 */
export * from '../core/query/windowColumns';
