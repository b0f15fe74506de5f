/**
 * Text from a trace file (category names, info formats, SRCLOC file names, popup text) is untrusted:
 * printed raw it can clear the screen, set the window title, make OSC 8 links or write the clipboard
 * (OSC 52). Every text output escapes control characters — C0 (U+0000–U+001F), DEL (U+007F) and C1
 * (U+0080–U+009F, e.g. U+009B CSI) — as visible `\xHH` (backslashes stay: Windows paths).
 * JSON output already escapes C0 (C1 is harmless inside a JSON string); spreadsheets get
 * `spreadsheetSafe` as well.
 */

function hex(c: string): string {
  return `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`;
}

/** The text with control characters as visible `\xHH`: safe for a terminal line or a cell. */
export function escapeControlsOnly(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/[\u0000-\u001f\u007f-\u009f]/g, hex);
}

/**
 * A spreadsheet cell that is never a formula: a text starting with `=`, `+`, `-`, `@`, tab or CR
 * gets a leading `'` (the OWASP CSV-injection rule). Numbers are never passed here.
 */
export function spreadsheetSafe(s: string): string {
  return /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
}
