// Imported first by main.tsx: marks when the page's script started running (the open timings then
// split the time before init into loading the page and running the app).
import { markOpenStage } from './timeline/openTimings';

markOpenStage('script');
