// Statistics view entry: styles (ours + uPlot's, bundled into dist/stats.css) and the panel.
import 'uplot/dist/uPlot.min.css';
import './stats.css';
import { render } from 'preact';
import { StatsPanel } from './StatsPanel';

render(<StatsPanel />, document.getElementById('root') ?? document.body);
