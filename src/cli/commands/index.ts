// One import per subcommand; each module calls registerCommand() from ../registry.
import './info';
import './dump';
import './stats';
import './convert';
import './synth';
import './rowIndex';
import './query';
import './analyze';
import './diff';
import './chain';
