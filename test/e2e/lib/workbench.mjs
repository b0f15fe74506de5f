// Everything that knows VS Code's DOM lives here, so a VS Code upgrade means fixing one file.
// (Pinned to code-server 4.139.1 / VS Code 1.139.1; most assertions belong in the extension-host suites.)

export const selectors = {
  workbench: '.monaco-workbench',
  explorerRow: '.explorer-folders-view .monaco-list-row',
  activeTab: '.editor-group-container.active .tab.active',
  allTabs: '.editor-group-container .tab',
  statusSelection: '[id="status.editor.selection"]',
  notificationItem: '.notification-list-item',
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
  const explorerRow = (name) => page.locator(selectors.explorerRow).filter({ has: page.locator(`[title$="${name}"], :text-is("${name}")`) }).first();
  return {
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
      return page.locator(selectors.notificationItem).evaluateAll((items) => items
        .filter((n) => n.querySelector('.codicon-error'))
        .map((n) => (n.querySelector('.notification-list-item-message')?.textContent ?? n.textContent ?? '').trim()));
    },
    async statusSelection() {
      return (await page.locator(selectors.statusSelection).textContent()) ?? '';
    },
    /** Closes every editor (Close All Editor Groups) and waits until no tab and no webview over the editor area is left. */
    async closeAllEditors() {
      await page.keyboard.press('Control+K');
      await page.keyboard.press('Control+Shift+W');
      await page.waitForFunction(([tab, webview, editorPart]) => {
        if (document.querySelector(tab)) return false;
        const area = document.querySelector(editorPart)?.getBoundingClientRect();
        if (!area) return true;
        return [...document.querySelectorAll(webview)].every((f) => {
          const r = f.getBoundingClientRect();
          return r.width === 0 || r.height === 0 || r.right <= area.left || r.left >= area.right || r.bottom <= area.top || r.top >= area.bottom;
        });
      }, [selectors.allTabs, selectors.webviewReady, selectors.editorPart], { timeout: 15_000 });
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
     */
    async openInCustomEditor(name, { attempts = 10, timeout = 30_000 } = {}) {
      const row = explorerRow(name);
      const binaryPlaceholder = page.getByRole('button', { name: 'Open Anyway' });
      const before = await this.editorWebviewCount();
      for (let attempt = 1; ; attempt++) {
        await row.click();
        const deadline = Date.now() + timeout;
        for (;;) {
          if ((await this.editorWebviewCount()) > before) return attempt;
          if (await binaryPlaceholder.isVisible().catch(() => false)) break;
          if (Date.now() > deadline) throw new Error(`no webview for ${name} within ${timeout / 1000} s`);
          await page.waitForTimeout(100);
        }
        if (attempt >= attempts) throw new Error(`${name} keeps opening in the text editor`);
        await page.keyboard.press('Control+W');
        await page.waitForTimeout(1000);
      }
    },
  };
}
