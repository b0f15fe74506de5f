// The older MPE formats open like the others: a SLOG-1 file (Jumpshot-3's pmandel.slog) and an ALOG
// file (upshot's cpilog.alog) are converted in the worker and their timelines painted. A `.slog`
// written by some other program is not claimed: the editor says so and offers "Open With…" and
// "Open as Text" (the latter opens it in the text editor).
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
    name: 'a .slog that is not SLOG-1 is not claimed: the editor says so, offers Open With…, and Open as Text opens the text editor',
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
          text = await wb
            .webview()
            .locator('body')
            .innerText()
            .catch(() => '');
        }
        // The editor offers the others; "Open as Text" replaces it with the text editor.
        const content = wb.webview();
        await content.getByRole('button', { name: 'Open With…' }).waitFor({ timeout: 10_000 });
        await screenshot('foreign-slog');
        await content.getByRole('button', { name: 'Open as Text' }).click();
        await page.waitForFunction(
          () => (document.querySelector('.monaco-editor .view-lines')?.textContent ?? '').replace(/\u00a0/g, ' ').includes('server started on port 8080'),
          undefined,
          { timeout: 20_000 },
        );
        if ((await wb.errorNotifications()).length) throw new Error('an error notification appeared for a foreign .slog');
      } finally {
        await wb.closeAllEditors().catch(() => {});
        fs.rmSync(path.join(workspace, name), { force: true });
      }
    },
  },
];
