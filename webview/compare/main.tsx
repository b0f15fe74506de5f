// Compare view entry: styles (ours + uPlot's, bundled into dist/compare.css) and the panel.
import 'uplot/dist/uPlot.min.css';
import '../stats/stats.css';
import './compare.css';
import { render } from 'preact';
import { ComparePanel } from './ComparePanel';

render(<ComparePanel />, document.getElementById('root') ?? document.body);
