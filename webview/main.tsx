// Webview entry: one acquireVsCodeApi(), then the timeline app (issue 5).
import { render } from 'preact';

function App() {
  return <div id="app">MPE Trace Viewer</div>;
}

render(<App />, document.body);
