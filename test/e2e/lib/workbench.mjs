// Everything that knows VS Code's DOM lives here, so a VS Code upgrade means fixing one file.
// (Pinned to code-server 4.139.1 / VS Code 1.139.1; most assertions belong in the extension-host suites.)

export const selectors = {
  workbench: '.monaco-workbench',
  explorerRow: '.explorer-folders-view .monaco-list-row',
  activeTab: '.editor-group-container.active .tab.active',
  allTabs: '.editor-group-container .tab',
  statusSelection: '[id="status.editor.selection"]',
  notification: '.notifications-toasts .notification-toast',
  webviewReady: 'iframe.webview.ready',
  webviewContent: '#active-frame',
};

/** Helpers over one Playwright page showing the workbench. */
export function workbench(page) {
  const explorerRow = (name) => page.locator(selectors.explorerRow).filter({ has: page.locator(`[title$="${name}"], :text-is("${name}")`) }).first();
  return {
    page,
    explorerRow,
    /** Both nested webview iframes; the content frame of the visible webview. */
    webview: () => page.frameLocator(selectors.webviewReady).frameLocator(selectors.webviewContent),
    async activeTabName() {
      return page.locator(selectors.activeTab).first().getAttribute('data-resource-name');
    },
    async tabNames() {
      return page.locator(selectors.allTabs).evaluateAll((tabs) => tabs.map((t) => t.getAttribute('data-resource-name')));
    },
    async statusSelection() {
      return (await page.locator(selectors.statusSelection).textContent()) ?? '';
    },
    /** Closes every editor (Close All Editor Groups) and waits until no tab and no webview is left. */
    async closeAllEditors() {
      await page.keyboard.press('Control+K');
      await page.keyboard.press('Control+Shift+W');
      await page.waitForFunction(([tab, webview]) => !document.querySelector(tab) && !document.querySelector(webview),
        [selectors.allTabs, selectors.webviewReady], { timeout: 15_000 });
    },
    /**
     * Opens a file by clicking it in the Explorer, as a person would. For a file our custom editor owns, waits
     * for its webview. Until the remote extension host has registered our contributions (a few seconds
     * after the workbench appears) a binary file opens in the text editor ("Open Anyway"): close that and retry.
     */
    async openInCustomEditor(name, { attempts = 10, timeout = 30_000 } = {}) {
      const row = explorerRow(name);
      const webviewFrame = page.locator(selectors.webviewReady);
      const binaryPlaceholder = page.getByRole('button', { name: 'Open Anyway' });
      const before = await webviewFrame.count();
      for (let attempt = 1; ; attempt++) {
        await row.click();
        await page.waitForFunction(
          ([sel, n]) => document.querySelectorAll(sel).length > n || [...document.querySelectorAll('a.monaco-button, .monaco-button')].some((b) => b.textContent?.trim() === 'Open Anyway' && b.offsetParent),
          [selectors.webviewReady, before], { timeout });
        if (!(await binaryPlaceholder.isVisible().catch(() => false))) return attempt;
        if (attempt >= attempts) throw new Error(`${name} keeps opening in the text editor`);
        await page.keyboard.press('Control+W');
        await page.waitForTimeout(1000);
      }
    },
  };
}
