// Webview entry: the timeline app (issue 5). Styles are bundled by esbuild into dist/webview.css.
import './scriptStart';
import { render } from 'preact';
import { App } from './App';
import './styles.css';

render(<App />, document.getElementById('root')!);
