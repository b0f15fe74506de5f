// Everything that knows VS Code's DOM lives here, so a VS Code upgrade means fixing one file.
// (Pinned to code-server 4.139.1 / VS Code 1.139.1; most assertions belong in the extension-host suites.)

export const selectors = {
  workbench: '.monaco-workbench',
  explorerRow: '.explorer-folders-view .monaco-list-row',
  activeTab: '.editor-group-container.active .tab.active',
  allTabs: '.editor-group-container .tab',
  statusSelection: '[id="status.editor.selection"]',
  notificationItem: '.notification-list-item',
  /** Notification toasts on screen (bottom right; not the ones only in the notification center). */
  notificationToast: '.notifications-toasts .notification-toast',
  /** A modal dialog (showWarningMessage with modal: true) and its buttons. */
  dialog: '.monaco-dialog-box',
  dialogButton: '.monaco-dialog-box .dialog-buttons a.monaco-button',
  editorGroup: '.part.editor .editor-group-container',
  webviewReady: 'iframe.webview.ready',
  /** The one visible webview (steps keep at most one on screen: side-bar views are closed again). */
  visibleWebview: 'iframe.webview.ready >> visible=true',
  webviewContent: '#active-frame',
  activityBarItem: '.part.activitybar .action-item a',
  sideBar: '.part.sidebar',
  editorPart: '.part.editor',
  /** The input of the quick pick / input box (showInputBox, showQuickPick). */
  quickInput: '.quick-input-widget input.input',
};

/** Helpers over one Playwright page showing the workbench. */
export function workbench(page) {
  const explorerRow = (name) =>
    page
      .locator(selectors.explorerRow)
      .filter({ has: page.locator(`[title$="${name}"], :text-is("${name}")`) })
      .first();
  return {
    /** When openInCustomEditor last clicked the file (its retries click again). */
    lastOpenClick: 0,
    page,
    explorerRow,
    /** The content frame of the visible webview (two nested iframes). */
    webview: () => page.frameLocator(selectors.visibleWebview).frameLocator(selectors.webviewContent),
    async activeTabName() {
      return page.locator(selectors.activeTab).first().getAttribute('data-resource-name');
    },
    async tabNames() {
      return page.locator(selectors.allTabs).evaluateAll((tabs) => tabs.map((t) => t.getAttribute('data-resource-name')));
    },
    /** Texts of the error notifications currently shown (toasts and the notification center). */
    async errorNotifications() {
      return page
        .locator(selectors.notificationItem)
        .evaluateAll((items) =>
          items
            .filter((n) => n.querySelector('.codicon-error'))
            .map((n) => (n.querySelector('.notification-list-item-message')?.textContent ?? n.textContent ?? '').trim()),
        );
    },
    /** Runs a command by its title through the command palette (F1), as a person would. */
    async runCommand(title) {
      const input = page.locator(selectors.quickInput);
      const row = page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
      // F1 can be lost while focus moves into a webview, and an open palette can close again when
      // the webview takes the focus (the npm start check failed so twice: no palette 10 s after
      // F1; the palette gone before its list showed the command): the whole step is retried, at
      // most four times.
      for (let attempt = 1; ; attempt++) {
        await page.keyboard.press('F1');
        const shown = await input.waitFor({ state: 'visible', timeout: 3_000 }).then(
          () => true,
          () => false,
        );
        if (shown) {
          await input.fill(`>${title}`);
          const listed = await row.waitFor({ timeout: 5_000 }).then(
            () => true,
            () => false,
          );
          if (listed && (await input.isVisible())) {
            await page.keyboard.press('Enter');
            return;
          }
        }
        if (attempt === 4) throw new Error(`the command palette did not list "${title}" after F1 (${attempt} times)`);
      }
    },
    /** For each editor group (left to right), the resource names of its tabs. */
    async tabsByGroup() {
      return page
        .locator(selectors.editorGroup)
        .evaluateAll((groups) => groups.map((g) => [...g.querySelectorAll('.tab')].map((t) => t.getAttribute('data-resource-name'))));
    },
    async statusSelection() {
      return (await page.locator(selectors.statusSelection).textContent()) ?? '';
    },
    /** Closes every editor (Close All Editor Groups) and waits until no tab and no webview over the editor area is left. */
    async closeAllEditors() {
      const closed = ([tab, webview, editorPart]) => {
        if (document.querySelector(tab)) return false;
        const area = document.querySelector(editorPart)?.getBoundingClientRect();
        if (!area) return true;
        return [...document.querySelectorAll(webview)].every((f) => {
          const r = f.getBoundingClientRect();
          return r.width === 0 || r.height === 0 || r.right <= area.left || r.left >= area.right || r.bottom <= area.top || r.top >= area.bottom;
        });
      };
      const args = [selectors.allTabs, selectors.webviewReady, selectors.editorPart];
      await page.keyboard.press('Control+K');
      await page.keyboard.press('Control+Shift+W');
      // The chord is lost when focus sits in a panel that takes keys (e.g. the Problems filter): then
      // the same command through the command palette.
      const viaKeys = await page.waitForFunction(closed, args, { timeout: 5_000 }).then(
        () => true,
        () => false,
      );
      if (viaKeys) return;
      await page.keyboard.press('Escape');
      await this.runCommand('View: Close All Editor Groups');
      await page.waitForFunction(closed, args, { timeout: 15_000 });
    },
    /** Webview iframes whose box lies over the editor area (the trace editors, not side-bar views). */
    async editorWebviewCount() {
      return page.locator(selectors.webviewReady).evaluateAll((frames, editorPart) => {
        const area = document.querySelector(editorPart)?.getBoundingClientRect();
        return frames.filter((f) => {
          const r = f.getBoundingClientRect();
          return area && r.width > 0 && r.height > 0 && r.left >= area.left - 1 && r.right <= area.right + 1;
        }).length;
      }, selectors.editorPart);
    },
    /**
     * Opens a file by clicking it in the Explorer, as a person would. For a file our custom editor owns, waits
     * for its webview. Until the remote extension host has registered our contributions (a few seconds
     * after the workbench appears) a binary file opens in the text editor ("Open Anyway"): close that and retry.
     * The Explorer recycles its row elements as it scrolls (it reveals the active file when editors
     * open and close), so a click can land on the row's new file: an editor opened for another file
     * is closed and the click retried.
     */
    async openInCustomEditor(name, { attempts = 10, timeout = 30_000 } = {}) {
      const row = explorerRow(name);
      const base = name.split('/').pop();
      const binaryPlaceholder = page.getByRole('button', { name: 'Open Anyway' });
      const before = await this.editorWebviewCount();
      // the active tab's name now, without waiting for one to exist (activeTabName waits)
      const activeNow = () => page.evaluate((sel) => document.querySelector(sel)?.getAttribute('data-resource-name') ?? null, selectors.activeTab);
      const activeBefore = await activeNow();
      for (let attempt = 1; ; attempt++) {
        this.lastOpenClick = Date.now();
        await row.click();
        const deadline = Date.now() + timeout;
        let other = null;
        for (;;) {
          const active = await activeNow();
          if (active && active !== base && active !== activeBefore) {
            other = active;
            break;
          }
          if (active === base && (await this.editorWebviewCount()) > before) return attempt;
          if (await binaryPlaceholder.isVisible().catch(() => false)) break;
          if (Date.now() > deadline) throw new Error(`no webview for ${name} within ${timeout / 1000} s`);
          await page.waitForTimeout(100);
        }
        if (attempt >= attempts)
          throw new Error(other ? `clicking ${name} in the Explorer keeps opening ${other}` : `${name} keeps opening in the text editor`);
        await page.keyboard.press('Control+W');
        await page.waitForTimeout(1000);
      }
    },
  };
}

/**
 * Waits until the timeline is painted: among the largest <canvas> elements of the visible webview (the plot
 * layers, not the overview strip or the labels), the most colourful one shows at least `minColours` distinct
 * colours. A background with grid lines has about 4; drawn states, arrows and events give hundreds.
 */
export async function waitForPaintedCanvas(page, timeout = 30_000, minColours = 8) {
  const frame = page.frameLocator(selectors.visibleWebview).frameLocator(selectors.webviewContent);
  const canvases = frame.locator('canvas');
  await canvases.first().waitFor({ state: 'attached', timeout });
  const deadline = Date.now() + timeout;
  let last;
  while (Date.now() < deadline) {
    last = await canvases
      .evaluateAll((all, min) => {
        const area = (c) => c.width * c.height;
        const largest = Math.max(...all.map(area));
        if (!largest) return { painted: false, why: 'every canvas is 0x0' };
        let best = { colours: 0, what: '' };
        for (const c of all.filter((x) => area(x) === largest)) {
          const g = c.getContext('2d');
          if (!g) return { painted: true, why: `non-2D canvas ${c.width}x${c.height}` };
          const data = g.getImageData(0, 0, c.width, c.height).data;
          const colours = new Set();
          for (let i = 0; i < data.length && colours.size < 1000; i += 4) colours.add((data[i] << 24) | (data[i + 1] << 16) | (data[i + 2] << 8) | data[i + 3]);
          if (colours.size > best.colours) best = { colours: colours.size, what: `${c.width}x${c.height}` };
        }
        return { painted: best.colours >= min, why: `plot canvas ${best.what} shows ${best.colours}${best.colours >= 1000 ? '+' : ''} colours (need ${min})` };
      }, minColours)
      .catch((e) => ({ painted: false, why: e.message }));
    if (last.painted) return last;
    await page.waitForTimeout(250);
  }
  throw new Error(`timeline canvas not painted: ${last?.why}`);
}

/**
 * The ready webview iframes with their boxes, in DOM order; `frame` reaches the content by the
 * iframe's name (VS Code's id of the webview), not by position: webviews made or dropped later
 * shift positions, and a locator by `nth=` then points at another (possibly hidden) webview.
 */
export async function readyWebviews(page) {
  const found = await page.locator(selectors.webviewReady).evaluateAll((frames) =>
    frames.map((f) => {
      const r = f.getBoundingClientRect();
      return { name: f.getAttribute('name') ?? '', x: r.x, y: r.y, width: r.width, height: r.height };
    }),
  );
  return found
    .filter((w) => w.name !== '')
    .map((w) => ({ ...w, frame: page.frameLocator(`${selectors.webviewReady}[name="${w.name}"]`).frameLocator(selectors.webviewContent) }));
}
