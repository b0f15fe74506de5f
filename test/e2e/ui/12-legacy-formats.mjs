// The older MPE formats open like the others: a SLOG-1 file (Jumpshot-3's pmandel.slog) and an ALOG
// file (upshot's cpilog.alog) are converted in the worker and their timelines painted. A `.slog`
// written by some other program is not claimed: the editor says so and offers "Open With…".
import fs from 'node:fs';
import path from 'node:path';
import { noEditor, openTraceSteps } from './10-trace-editor.mjs';

export default [
  ...openTraceSteps('pmandel.slog', 'timeline-slog1'),
  ...openTraceSteps('cpilog.alog', 'timeline-alog'),
  {
    name: 'no error notification appeared while opening the SLOG-1 and ALOG traces',
    skip: noEditor,
    async run({ wb }) {
      const errors = await wb.errorNotifications();
      if (errors.length) throw new Error(`error notification(s): ${errors.map((t) => JSON.stringify(t)).join('; ')}`);
    },
  },
  {
    name: 'a .slog that is not SLOG-1 is not claimed: the editor says so and offers Open With…',
    skip: noEditor,
    timeout: 60_000,
    async run({ page, wb, workspace, screenshot }) {
      const name = 'server.slog';
      fs.writeFileSync(path.join(workspace, name), '2024-01-01 12:00:00 server started on port 8080\n'.repeat(20));
      try {
        await wb.explorerRow(name).waitFor({ timeout: 20_000 });
        await wb.closeAllEditors();
        await wb.openInCustomEditor(name);
        const deadline = Date.now() + 20_000;
        let text = '';
        while (!/not a SLOG-1 trace/.test(text)) {
          if (Date.now() > deadline) throw new Error(`no "not a SLOG-1 trace" message in the webview; it shows ${JSON.stringify(text.slice(-200))}`);
          await page.waitForTimeout(250);
          text = await wb.webview().locator('body').innerText().catch(() => '');
        }
        // The notification (toast) offering another editor: its text and its buttons' labels.
        let notes = [];
        const until = Date.now() + 20_000;
        while (!notes.some((t) => t.includes('not a SLOG-1 trace') && t.includes('Open With'))) {
          if (Date.now() > until) throw new Error(`no notification offering "Open With…"; notifications: ${JSON.stringify(notes)}`);
          await page.waitForTimeout(250);
          notes = await page.locator('.notification-list-item').evaluateAll((items) => items.map((n) => n.innerText ?? n.textContent ?? ''));
        }
        if ((await wb.errorNotifications()).length) throw new Error('an error notification appeared for a foreign .slog');
        await screenshot('foreign-slog');
      } finally {
        await wb.closeAllEditors().catch(() => {});
        fs.rmSync(path.join(workspace, name), { force: true });
      }
    },
  },
];
